// region_tampering from the sidecar's portrait checks: on an identity document, the portrait
// (located without a template: the largest portrait-shaped textured area no text crosses)
// compared with the rest of the same card: sharper than the captured card with a seam at its
// edge sharper than any printed edge, beyond a threshold measured on
// genuine cards of every capture path. A portrait pasted after the capture shows so; one
// printed on the card went through the same capture as everything else. Where no portrait
// was found, or the card is too small to compare, coverage is 0 and nothing is raised.
import type { SidecarPage } from "../../sidecar-client/result.ts";
import type { Box, DetectorResult, Evidence } from "../report.ts";
import { excessStrength, MIN_RELIABILITY, meanOver, numberFact, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const PORTRAIT_DETECTOR = "portrait-consistency" satisfies DetectorName;

const LABEL: Record<string, string> = {
  sharpSeam:
    "is sharper (less blurred, or noisier) than the rest of the card, with an edge sharper than any printed edge (a seam)",
};

const boxOf = (facts: Record<string, unknown>): Box | undefined => {
  const [x, y, w, h] = [facts.boxX, facts.boxY, facts.boxWidth, facts.boxHeight];
  return typeof x === "number" && typeof y === "number" && typeof w === "number" && typeof h === "number"
    ? [x, y, w, h]
    : undefined;
};

export function detectPortraitTampering(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, (page) => traceOf(page, "portrait")?.reliability ?? 0);
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const trace = traceOf(page, "portrait");
    if (!trace) return { page: page.index + 1, portrait: "not measured (sidecar without portrait checks)" };
    const box = boxOf(trace.facts);
    const measure = String(trace.facts.strongestMeasure ?? "");
    const threshold = numberFact(trace, `${measure}Threshold`);
    const measured = numberFact(trace, measure);
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
        sharpSeam: numberFact(trace, "sharpSeam"),
        sharpness: numberFact(trace, "sharpness"),
        seam: numberFact(trace, "seam"),
        errorLevel: numberFact(trace, "errorLevel"),
        noise: numberFact(trace, "noise"),
        blockiness: numberFact(trace, "blockiness"),
      },
      threshold: { sharpSeam: numberFact(trace, "sharpSeamThreshold") },
    };
  });
  return {
    detector: PORTRAIT_DETECTOR,
    evidence,
    facts: { pages: perPage, measures: "log2 of the portrait's value over the rest of the card's; 0 = alike" },
    coverage,
  };
}
