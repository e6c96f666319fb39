// region_tampering from the sidecar's portrait checks: on an identity document, the portrait
// (located without a template: the largest portrait-shaped textured area no text crosses)
// compared with the rest of the same card: sharper than the captured card with a seam at its
// edge sharper than any printed edge, beyond a threshold measured on
// genuine cards of every capture path. A portrait pasted after the capture shows so; one
// printed on the card went through the same capture as everything else. Where no portrait
// was found, or the card is too small to compare, coverage is 0 and nothing is raised.
// ghost_image_mismatch from the same trace: where the card prints a ghost image and the
// sidecar found both faces surely, the ghost's face against the portrait's (one photograph
// printed twice); a pair that disagrees beyond the threshold is two people on one card. A
// page where the pair was compared counts as examined even where the portrait's own
// sharpness could not be compared.
import type { SidecarPage, TraceMeasures } from "../../sidecar-client/result.ts";
import type { DetectorResult, Evidence } from "../report.ts";
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

/** 0.5 at the threshold, 1 at half of it: how far below its threshold a similarity fell. */
const shortfallStrength = (similarity: number, threshold: number): number =>
  Math.min(1, 0.5 + Math.max(0, threshold - similarity) / threshold);

/** The ghost image compared with the portrait on this page, where the sidecar sent the pair. */
function ghostPair(page: SidecarPage) {
  const m = traceOf(page, "portrait")?.measures.portrait;
  return m?.face && m.ghost && m.ghostSimilarity !== undefined && m.ghostSimilarityThreshold !== undefined
    ? { face: m.face, ghost: m.ghost, similarity: m.ghostSimilarity, threshold: m.ghostSimilarityThreshold }
    : undefined;
}

export function detectPortraitTampering(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, (page) =>
    Math.max(traceOf(page, "portrait")?.reliability ?? 0, ghostPair(page) ? 1 : 0),
  );
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
    const ghost = ghostPair(page);
    if (ghost && ghost.similarity < ghost.threshold) {
      evidence.push({
        flag: "ghost_image_mismatch",
        detector: PORTRAIT_DETECTOR,
        strength: scaledStrength(shortfallStrength(ghost.similarity, ghost.threshold), 1, coverage),
        message:
          "The ghost image shows another face than the portrait: one of them was replaced (rank correlation of the two faces)",
        page: page.index + 1,
        box: ghost.ghost,
        measured: round2(ghost.similarity),
        threshold: ghost.threshold,
      });
    }
    return {
      page: page.index + 1,
      portrait: box ?? "not found",
      ...(ghost ? { face: ghost.face, ghostImage: ghost.ghost, ghostSimilarity: round2(ghost.similarity) } : {}),
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
      threshold: { sharpSeam: measures?.sharpSeamThreshold, ghostSimilarity: ghost?.threshold },
    };
  });
  return {
    detector: PORTRAIT_DETECTOR,
    evidence,
    facts: { pages: perPage, measures: "log2 of the portrait's value over the rest of the card's; 0 = alike" },
    coverage,
  };
}
