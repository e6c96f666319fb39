// copy_move from the sidecar's clone search: an area of the page that is a verified copy of
// another area (text over text is never compared there: repeated print looks the same, and
// matches that repeat at a period, like guilloches and MRZ fillers, are counted but not reported).
import type { SidecarPage } from "../../sidecar-client/result.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { MIN_RELIABILITY, meanOver, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const COPY_MOVE_DETECTOR = "copy-move" satisfies DetectorName;

/** A verified clone is strong evidence; near-perfect correlation adds to it. */
const baseStrength = (score: number, minCorrelation: number) =>
  Math.min(1, 0.7 + (0.3 * (score - minCorrelation)) / Math.max(1e-6, 1 - minCorrelation));

export function detectCopyMove(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, (page) => traceOf(page, "copy_move")?.reliability ?? 0);
  const evidence: Evidence[] = [];
  for (const page of pages) {
    const trace = traceOf(page, "copy_move");
    const minCorrelation = trace?.measures.copyMove?.minCorrelation;
    if (!trace || minCorrelation === undefined || trace.reliability < MIN_RELIABILITY) continue;
    for (const copy of page.copyMoves) {
      evidence.push({
        flag: "copy_move",
        detector: COPY_MOVE_DETECTOR,
        strength: scaledStrength(baseStrength(copy.score, minCorrelation), trace.reliability, coverage),
        message: `An area is a copy of another area of the same page (source [${copy.source.join(", ")}])`,
        page: page.index + 1,
        box: copy.target,
        measured: round2(copy.score),
        threshold: minCorrelation,
      });
    }
  }
  const facts = pages.map((page) => {
    const trace = traceOf(page, "copy_move");
    const measures = trace?.measures.copyMove;
    const paperNoise = measures?.paperNoise;
    // A sidecar predating the periodicity test sends no count: shown as unknown rather than 0.
    return {
      page: page.index + 1,
      reliability: round2(trace?.reliability ?? 0),
      // Why the search could not judge the page (a page too large to search), when it says.
      ...(typeof trace?.facts.reason === "string" ? { notJudged: trace.facts.reason } : {}),
      // The paper's sensor noise, which decides how far the search counts: a renderer repeats
      // content pixel for pixel, so identical areas say "copied" only on noisy paper.
      paperNoise: paperNoise === undefined ? "unknown" : round2(paperNoise),
      clones: page.copyMoves.length,
      periodicRepeats: measures?.periodicMatches ?? "unknown",
    };
  });
  return {
    detector: COPY_MOVE_DETECTOR,
    evidence,
    facts: { pages: facts },
    coverage,
    measurements: { clonesPerPage: pages.map((page) => page.copyMoves.length) },
  };
}
