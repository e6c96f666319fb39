// low_quality from what the OCR could read: a page with no legible text, or text read only
// with low confidence (blur, tiny print, heavy compression), hides what every content check
// and pixel trace looks for. Like every quality flag it lowers confidence, never the score.
import type { SidecarPage } from "../../sidecar-client/result.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { round2 } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";
import { MIN_MEAN_CONFIDENCE } from "../thresholds.ts";

export const READING_QUALITY_DETECTOR = "reading-quality" satisfies DetectorName;

export function detectReadingQuality(pages: readonly SidecarPage[]): DetectorResult {
  const lines = pages.flatMap((page) => page.lines);
  const mean = lines.length === 0 ? 0 : lines.reduce((sum, line) => sum + line.confidence, 0) / lines.length;
  const evidence: Evidence[] = [];
  if (pages.length > 0 && lines.length === 0) {
    evidence.push({
      flag: "low_quality",
      detector: READING_QUALITY_DETECTOR,
      strength: 1,
      message: "No text could be read",
      measured: 0,
      threshold: 1,
    });
  } else if (lines.length > 0 && mean < MIN_MEAN_CONFIDENCE) {
    evidence.push({
      flag: "low_quality",
      detector: READING_QUALITY_DETECTOR,
      strength: 1,
      message: "The text reads as blurred or degraded (low OCR confidence)",
      measured: round2(mean),
      threshold: MIN_MEAN_CONFIDENCE,
    });
  }
  return {
    detector: READING_QUALITY_DETECTOR,
    evidence,
    facts: {
      ocrLines: lines.length,
      meanConfidence: round2(mean),
      pagesWithText: pages.filter((p) => p.lines.length > 0).length,
    },
    coverage: 1,
    measurements: { ocrMeanConfidence: round2(mean) },
  };
}
