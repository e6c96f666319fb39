// recaptured from the sidecar's recapture cue: the page is a photograph of a screen or of a
// print rather than of the document itself, shown by periodic peaks (a screen's pixel grid,
// moire, halftone dots) in the spectra of patches across the page, beyond thresholds measured
// on genuine scans and photos. Provenance, not alteration: a customer may photograph a copy,
// but a recapture also hides the original's pixel traces (the sidecar counts them half there).
import type { SidecarPage } from "../../sidecar-client/result.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { excessStrength, MIN_RELIABILITY, meanOver, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const RECAPTURE_DETECTOR = "recapture" satisfies DetectorName;

export function detectRecapture(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, (page) => traceOf(page, "recapture")?.reliability ?? 0);
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const trace = traceOf(page, "recapture");
    if (!trace) return { page: page.index + 1, recapture: "not measured (sidecar without recapture cues)" };
    const measures = trace.measures.recapture;
    const luma = measures?.lumaPeak ?? 0;
    const chroma = measures?.chromaPeak ?? 0;
    const lumaThreshold = measures?.lumaPeakThreshold;
    const chromaThreshold = measures?.chromaPeakThreshold;
    if (
      trace.reliability >= MIN_RELIABILITY &&
      trace.globalScore >= 1 &&
      lumaThreshold !== undefined &&
      chromaThreshold !== undefined
    ) {
      const byLuma = measures?.strongestChannel !== "chroma";
      evidence.push({
        flag: "recaptured",
        detector: RECAPTURE_DETECTOR,
        strength: scaledStrength(excessStrength(trace.globalScore), trace.reliability, coverage),
        message: `The page shows a periodic pattern (a screen's pixel grid, moire or printed halftone) in its ${byLuma ? "brightness" : "colour"}: it looks like a photograph of a screen or of a print, not of the document (peak height over the spectrum, log10)`,
        page: page.index + 1,
        box: [0, 0, page.width, page.height],
        measured: round2(byLuma ? luma : chroma),
        threshold: byLuma ? lumaThreshold : chromaThreshold,
      });
    }
    return {
      page: page.index + 1,
      reliability: round2(trace.reliability),
      ...(typeof trace.facts.reason === "string" ? { reason: trace.facts.reason } : {}),
      lumaPeak: round2(luma),
      chromaPeak: round2(chroma),
      patchesAgreeing: {
        luma: measures?.lumaAgreement,
        chroma: measures?.chromaAgreement,
        of: measures?.patches,
      },
      thresholds: {
        lumaPeak: lumaThreshold,
        chromaPeak: chromaThreshold,
        patchesAgreeing: measures?.agreementThreshold,
      },
    };
  });
  return {
    detector: RECAPTURE_DETECTOR,
    evidence,
    facts: {
      pages: perPage,
      peaks:
        "strongest spectral peak over its radius's median, log10 power, median over patches; counted where enough patches peak at one frequency",
    },
    coverage,
  };
}
