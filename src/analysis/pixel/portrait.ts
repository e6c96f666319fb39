// region_tampering from the sidecar's portrait checks: on an identity document, the portrait
// (located without a template: the largest portrait-shaped textured area no text crosses)
// compared with the rest of the same card: sharper than the captured card with a seam at its
// edge sharper than any printed edge, beyond a threshold measured on
// genuine cards of every capture path. A portrait pasted after the capture shows so; one
// printed on the card went through the same capture as everything else. Where no portrait
// was found, or the card is too small to compare, coverage is 0 and nothing is raised.
import type { FactValue, SidecarPage, TraceMeasures } from "../../sidecar-client/result.ts";
import type { Box, DetectorResult, Evidence } from "../report.ts";
import { excessStrength, MIN_RELIABILITY, meanOver, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const PORTRAIT_DETECTOR = "portrait-consistency" satisfies DetectorName;

const LABEL: Record<string, string> = {
  sharpSeam:
    "is sharper (less blurred, or noisier) than the rest of the card, with an edge sharper than any printed edge (a seam)",
};

/**
 * Each measure the sidecar may name as the strongest, with the threshold it is judged by; a
 * measure not listed here (from a newer sidecar) is unknown and raises nothing.
 */
const JUDGED = new Map<
  string,
  (m: NonNullable<TraceMeasures["portrait"]>) => { measured?: number; threshold?: number }
>([["sharpSeam", (m) => ({ measured: m.sharpSeam, threshold: m.sharpSeamThreshold })]]);

/**
 * Where the sidecar found the portrait again, smaller (a ghost image), and how alike: a fact of the
 * stored report, for whoever compares the two faces, and never raised, since most templates
 * print no ghost.
 */
function ghostOf(facts: Record<string, FactValue>): Record<string, FactValue | Box> | string {
  const { ghostX: x, ghostY: y, ghostWidth: w, ghostHeight: h, ghostCorrelation, ghostDetail, ghost } = facts;
  if (typeof x !== "number" || typeof y !== "number" || typeof w !== "number" || typeof h !== "number")
    return typeof ghost === "string" ? ghost : "not searched (sidecar without the ghost search)";
  return {
    verdict: ghost ?? "unknown",
    box: [x, y, w, h],
    correlation: ghostCorrelation ?? 0,
    detail: ghostDetail ?? 0,
  };
}

export function detectPortraitTampering(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, (page) => traceOf(page, "portrait")?.reliability ?? 0);
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const trace = traceOf(page, "portrait");
    if (!trace) return { page: page.index + 1, portrait: "not measured (sidecar without portrait checks)" };
    const measures = trace.measures.portrait;
    const box = measures?.box;
    const measure = measures?.strongestMeasure ?? "";
    const { measured, threshold } = (measures && JUDGED.get(measure)?.(measures)) ?? {};
    if (
      trace.reliability >= MIN_RELIABILITY &&
      trace.globalScore >= 1 &&
      box &&
      threshold !== undefined &&
      measured !== undefined
    ) {
      evidence.push({
        flag: "region_tampering",
        detector: PORTRAIT_DETECTOR,
        strength: scaledStrength(excessStrength(trace.globalScore), trace.reliability, coverage),
        message: `The portrait ${LABEL[measure] ?? "differs from the rest of the card"}: it may have been pasted in after the card was captured (log2 ratio portrait / rest of card)`,
        page: page.index + 1,
        box,
        measured: round2(measured),
        threshold,
      });
    }
    return {
      page: page.index + 1,
      portrait: box ?? "not found",
      reliability: round2(trace.reliability),
      ...(typeof trace.facts.reason === "string" ? { reason: trace.facts.reason } : {}),
      measured: {
        sharpSeam: measures?.sharpSeam,
        sharpness: measures?.sharpness,
        seam: measures?.seam,
        errorLevel: measures?.errorLevel,
        noise: measures?.noise,
        blockiness: measures?.blockiness,
      },
      threshold: { sharpSeam: measures?.sharpSeamThreshold },
      ghost: ghostOf(trace.facts),
    };
  });
  return {
    detector: PORTRAIT_DETECTOR,
    evidence,
    facts: { pages: perPage, measures: "log2 of the portrait's value over the rest of the card's; 0 = alike" },
    coverage,
  };
}
