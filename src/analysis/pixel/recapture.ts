// recaptured from the sidecar's recapture cues: the page is a photograph of a screen or of a
// print rather than of the document itself. Two cues show it. Periodic peaks (a screen's pixel
// grid, moire, halftone dots) in the spectra of patches across the page, beyond thresholds
// measured on genuine scans and photos. And, on an identity document, a grey document in a
// coloured scene: a black-and-white copy photographed on a desk, since identity documents are
// printed in colour (a statement or a bill is black on white, and is not judged so).
// Provenance, not alteration: a customer may photograph a copy, but a recapture also hides the
// original's pixel traces (the sidecar counts them half where the spectra show it).
import type { SidecarPage, SidecarTrace } from "../../sidecar-client/result.ts";
import { IDENTITY_TYPES, type DocumentType } from "../flags.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { excessStrength, MIN_RELIABILITY, meanOver, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const RECAPTURE_DETECTOR = "recapture" satisfies DetectorName;

const fires = (trace: SidecarTrace): boolean => trace.reliability >= MIN_RELIABILITY && trace.globalScore >= 1;

/** recaptured over the whole page, as strong as the trace's excess over its threshold. */
const pageEvidence = (
  page: SidecarPage,
  trace: SidecarTrace,
  coverage: number,
  found: Pick<Evidence, "message" | "measured" | "threshold">,
): Evidence => ({
  flag: "recaptured",
  detector: RECAPTURE_DETECTOR,
  strength: scaledStrength(excessStrength(trace.globalScore), trace.reliability, coverage),
  message: found.message,
  page: page.index + 1,
  box: [0, 0, page.width, page.height],
  measured: found.measured,
  threshold: found.threshold,
});

/** The spectral cue's evidence and facts on one page. */
function spectralCue(page: SidecarPage, trace: SidecarTrace, coverage: number) {
  const measures = trace.measures.recapture;
  const luma = measures?.lumaPeak ?? 0;
  const chroma = measures?.chromaPeak ?? 0;
  const lumaThreshold = measures?.lumaPeakThreshold;
  const chromaThreshold = measures?.chromaPeakThreshold;
  const evidence: Evidence[] = [];
  if (fires(trace) && lumaThreshold !== undefined && chromaThreshold !== undefined) {
    const byLuma = measures?.strongestChannel !== "chroma";
    evidence.push(
      pageEvidence(page, trace, coverage, {
        message: `The page shows a periodic pattern (a screen's pixel grid, moire or printed halftone) in its ${byLuma ? "brightness" : "colour"}: it looks like a photograph of a screen or of a print, not of the document (peak height over the spectrum, log10)`,
        measured: round2(byLuma ? luma : chroma),
        threshold: byLuma ? lumaThreshold : chromaThreshold,
      }),
    );
  }
  const facts = {
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
  return { evidence, facts };
}

/** The grey-copy cue's evidence and facts on one page of an identity document. */
function greyCue(page: SidecarPage, trace: SidecarTrace, coverage: number) {
  const measures = trace.measures.greyDocument;
  const threshold = measures?.documentSpreadThreshold;
  const evidence: Evidence[] = [];
  if (fires(trace) && threshold !== undefined && measures?.sceneSpreadThreshold !== undefined) {
    evidence.push(
      pageEvidence(page, trace, coverage, {
        message: `The document has no colour while the scene around it has (colour spread ${round2(measures.sceneSpread ?? 0)} around it, at least ${measures.sceneSpreadThreshold} needed): it looks like a photograph of a black-and-white copy, not of the document (colour spread within the document)`,
        measured: round2(measures.documentSpread ?? 0),
        threshold,
      }),
    );
  }
  const facts = {
    reliability: round2(trace.reliability),
    ...(typeof trace.facts.reason === "string" ? { reason: trace.facts.reason } : {}),
    documentSpread: round2(measures?.documentSpread ?? 0),
    sceneSpread: round2(measures?.sceneSpread ?? 0),
    thresholds: { documentSpread: threshold, sceneSpread: measures?.sceneSpreadThreshold },
  };
  return { evidence, facts };
}

export function detectRecapture(pages: readonly SidecarPage[], documentType: DocumentType = "unknown"): DetectorResult {
  const identity = IDENTITY_TYPES.includes(documentType);
  const grey = (page: SidecarPage) => (identity ? traceOf(page, "grey_document") : undefined);
  const coverage = meanOver(pages, (page) =>
    Math.max(traceOf(page, "recapture")?.reliability ?? 0, grey(page)?.reliability ?? 0),
  );
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const spectral = traceOf(page, "recapture");
    if (!spectral) return { page: page.index + 1, recapture: "not measured (sidecar without recapture cues)" };
    const periodic = spectralCue(page, spectral, coverage);
    evidence.push(...periodic.evidence);
    const greyTrace = grey(page);
    const copy = greyTrace ? greyCue(page, greyTrace, coverage) : null;
    if (copy) evidence.push(...copy.evidence);
    return {
      page: page.index + 1,
      ...periodic.facts,
      greyCopy: copy
        ? copy.facts
        : identity
          ? "not measured (sidecar without the grey-copy cue)"
          : "not judged (only identity documents are printed in colour)",
    };
  });
  return {
    detector: RECAPTURE_DETECTOR,
    evidence,
    facts: {
      pages: perPage,
      peaks:
        "strongest spectral peak over its radius's median, log10 power, median over patches; counted where enough patches peak at one frequency",
      greyCopy:
        "colour spread of block colours (BT.601 chroma) where the page's text is, around its own median, and of the scene around it",
    },
    coverage,
  };
}
