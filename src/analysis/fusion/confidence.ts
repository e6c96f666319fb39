// How much the evidence can bear, as one of three levels. The level starts from how far
// the score is from the verdict's line (0.5): the trainer measured, on out-of-fold
// predictions of the training split, the margin beyond which verdicts were right often
// enough to call high (model.json `confidence`). What the detectors could not see then
// lowers it: a degraded image or unreadable text, a detector that failed, or detectors
// that between them saw markedly less than usual.
import type { Confidence } from "../flags.ts";
import { qualityOf } from "./features.ts";

/**
 * Mean coverage of the applicable detectors under which no verdict is called high: 95% of
 * the training split of the full corpus reaches it (the lowest is 0.7, images only), so it
 * withholds high only where the detectors saw markedly less than usual.
 */
const MIN_HIGH_COVERAGE = 0.8;

const ORDER: Confidence[] = ["low", "medium", "high"];
const lower = (level: Confidence): Confidence => ORDER[Math.max(0, ORDER.indexOf(level) - 1)]!;
export const atMost = (level: Confidence, ceiling: Confidence): Confidence =>
  ORDER[Math.min(ORDER.indexOf(level), ORDER.indexOf(ceiling))]!;

export function confidenceLevel(
  score: number,
  features: readonly number[],
  margins: { highMargin: number; lowMargin: number },
): Confidence {
  const margin = Math.abs(score - 0.5);
  let level: Confidence = margin >= margins.highMargin ? "high" : margin < margins.lowMargin ? "low" : "medium";
  if (qualityOf(features, "quality:lowQuality") > 0) level = lower(level);
  if (
    qualityOf(features, "quality:failedDetectors") > 0 ||
    qualityOf(features, "quality:meanCoverage") < MIN_HIGH_COVERAGE
  )
    level = atMost(level, "medium");
  return level;
}
