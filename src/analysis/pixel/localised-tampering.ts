// region_tampering from the sidecar's learnt localiser (sidecar/localiser): groups of cells
// that the network, trained on labelled forgeries of generated documents, scores at or above
// the threshold measured with it (at most 1% of genuine validation pages reach it). Each group
// is raised with its box, so the analyst sees where. The model looks at pixels only; it
// counts in proportion to how well it could see the page: its size (the sidecar's
// reliability) and how legibly the OCR read it, since a page too blurred to read is too
// blurred for edits to show, and an unreadable page raises nothing. Not registered in
// full-analyzer.ts yet: the committed model does not separate forged pages from genuine ones
// (docs/evaluation/localiser/), and the sidecar does not run it.
import type { SidecarPage } from "../../sidecar-client/result.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { MIN_MEAN_CONFIDENCE } from "../thresholds.ts";
import { clamp01 } from "../../numeric.ts";
import { MIN_RELIABILITY, meanOver, round2, scaledStrength } from "./traces.ts";

const LOCALISER_DETECTOR = "localiser";

/**
 * Mean OCR line confidence at which the page counts as unreadable; full legibility at
 * MIN_MEAN_CONFIDENCE.
 */
const UNREADABLE_CONFIDENCE = 0.6;

/** 0.5 at the threshold, 1 at certainty. */
const baseStrength = (score: number, threshold: number) =>
  Math.min(1, 0.5 + (0.5 * (score - threshold)) / Math.max(1e-6, 1 - threshold));

const legibility = (page: SidecarPage): number => {
  if (page.lines.length === 0) return 0;
  const mean = page.lines.reduce((sum, line) => sum + line.confidence, 0) / page.lines.length;
  return clamp01((mean - UNREADABLE_CONFIDENCE) / (MIN_MEAN_CONFIDENCE - UNREADABLE_CONFIDENCE));
};

/** How far the localiser could see the page, 0..1; 0 from a sidecar without it. */
const localiserCoverage = (page: SidecarPage): number =>
  page.localisation ? page.localisation.reliability * legibility(page) : 0;

export function detectLocalisedTampering(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, localiserCoverage);
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const found = page.localisation;
    if (!found) return { page: page.index + 1, localiser: "not run by this sidecar" };
    const seen = localiserCoverage(page);
    if (seen >= MIN_RELIABILITY) {
      for (const region of found.regions.filter((r) => r.score >= found.threshold)) {
        evidence.push({
          flag: "region_tampering",
          detector: LOCALISER_DETECTOR,
          strength: scaledStrength(baseStrength(region.score, found.threshold), seen, coverage),
          message: `The tampering localiser marks an area as altered (probability ${round2(region.score)}), page coverage ${round2(seen)}`,
          page: page.index + 1,
          box: region.box,
          measured: round2(region.score),
          threshold: round2(found.threshold),
        });
      }
    }
    return {
      page: page.index + 1,
      score: round2(found.score),
      threshold: round2(found.threshold),
      coverage: round2(seen),
      regions: found.regions.length,
      ...found.facts,
    };
  });
  return {
    detector: LOCALISER_DETECTOR,
    evidence,
    facts: { pages: perPage, scores: "highest cell probability of tampering per page" },
    coverage,
  };
}
