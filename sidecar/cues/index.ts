// Portrait checks and recapture cues of one page, as forensic traces: each says what it
// measured (typed measures the API judges by, facts for people), how far it can be trusted
// here (reliability, 0 where it could not judge) and the threshold it was measured against,
// so the API judges a remote sidecar's values by that sidecar's own thresholds. The per-pixel
// work they need is the forensic graph's per-block maps (portrait), a few patch spectra
// (recapture) and block colours (a grey copy photographed).
import type { ForensicMaps } from "../forensics/graph.ts";
import type { Box, Trace } from "../forensics/types.ts";
import { type GreyDocumentMeasure, measureGreyDocument } from "./grey-document.ts";
import { type GhostMeasure, NO_GHOST, measureGhost } from "./portrait-ghost.ts";
import { type PortraitMeasure, measurePortrait } from "./portrait.ts";
import { type RecaptureMeasure, measureRecapture } from "./recapture.ts";
import { GREY_DOCUMENT_THRESHOLDS, PORTRAIT_THRESHOLDS, RECAPTURE_THRESHOLDS } from "./thresholds.ts";

export {
  GHOST_THRESHOLDS,
  GREY_DOCUMENT_THRESHOLDS,
  PORTRAIT_THRESHOLDS,
  RECAPTURE_THRESHOLDS,
} from "./thresholds.ts";
export type { PortraitMeasure } from "./portrait.ts";
export type { RecaptureMeasure } from "./recapture.ts";

export interface PixelCues {
  portrait: PortraitMeasure;
  ghost: GhostMeasure;
  recapture: RecaptureMeasure;
  greyDocument: GreyDocumentMeasure;
}

export function measureCues(
  rgb: Uint8Array,
  width: number,
  height: number,
  maps: ForensicMaps,
  lines: Box[],
  block: number,
): PixelCues {
  const portrait = measurePortrait(maps, lines, block);
  const ghost = portrait.box ? measureGhost(rgb, width, height, portrait.box) : NO_GHOST;
  return {
    portrait,
    ghost,
    recapture: measureRecapture(rgb, width, height),
    greyDocument: measureGreyDocument(rgb, width, height, lines),
  };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Sharper than the card and with a sharp seam, both: the smaller of the two log2 ratios. */
const sharpSeam = (m: PortraitMeasure): number => Math.min(m.sharpness, m.seam);

/**
 * The portrait measure furthest above its threshold, as a multiple of it (1 = at the threshold);
 * only a rise accuses.
 */
export function portraitExcess(m: PortraitMeasure): { measure: keyof typeof PORTRAIT_THRESHOLDS; ratio: number } {
  let best: { measure: keyof typeof PORTRAIT_THRESHOLDS; ratio: number } = { measure: "sharpSeam", ratio: 0 };
  const values = { sharpSeam: sharpSeam(m) };
  for (const measure of Object.keys(PORTRAIT_THRESHOLDS) as (keyof typeof PORTRAIT_THRESHOLDS)[]) {
    const ratio = Math.max(0, values[measure]) / PORTRAIT_THRESHOLDS[measure];
    if (ratio > best.ratio) best = { measure, ratio };
  }
  return best;
}

/**
 * Per channel, its peak over its threshold where enough patches agree on the peak's frequency, else
 * 0.
 */
export function recaptureScores(r: RecaptureMeasure): { luma: number; chroma: number } {
  const t = RECAPTURE_THRESHOLDS;
  return {
    luma: r.lumaAgreement >= t.agreement ? r.lumaPeak / t.lumaPeak : 0,
    chroma: r.chromaAgreement >= t.agreement ? r.chromaPeak / t.chromaPeak : 0,
  };
}

/**
 * How far the document is under its spread threshold, as a multiple (1 = at it; 2 = half of it),
 * where the scene has colour; else 0.
 */
export function greyDocumentScore(m: GreyDocumentMeasure): number {
  const t = GREY_DOCUMENT_THRESHOLDS;
  if (!m.judged || m.sceneSpread < t.sceneSpread) return 0;
  return t.documentSpread / Math.max(m.documentSpread, t.documentSpread / 4);
}

/**
 * `evidence` (0..1) is what the page allows the portrait and spectral cues to see: a heavy last
 * compression wipes out the fine periods and noise they compare, and a small page holds too few
 * patches and blocks. It multiplies their reliability; the grey-copy cue's is its own
 * (greyDocumentTrace).
 */
export function cueTraces(cues: PixelCues, evidence = 1): Trace[] {
  const p = cues.portrait;
  const judged = p.box !== null && p.innerBlocks > 0 && p.restBlocks > 0 && (p.noise !== 0 || p.sharpness !== 0);
  const excess = portraitExcess(p);
  const portrait: Trace = {
    name: "portrait",
    reliability: judged ? evidence : 0,
    globalScore: judged ? round3(excess.ratio) : 0,
    facts: {
      ...(p.box ? {} : { reason: "no portrait-shaped textured area without text" }),
      ...(p.box && !judged ? { reason: "portrait or rest of the card too small to compare" } : {}),
      innerBlocks: p.innerBlocks,
      restBlocks: p.restBlocks,
      ...(cues.ghost.box
        ? {
            ghostX: cues.ghost.box[0],
            ghostY: cues.ghost.box[1],
            ghostWidth: cues.ghost.box[2],
            ghostHeight: cues.ghost.box[3],
            ghostCorrelation: round3(cues.ghost.correlation),
            ghostDetail: round3(cues.ghost.detail),
            ghost: cues.ghost.repeated ? "portrait repeated" : "no repeat of the portrait",
          }
        : { ghost: "not searched" }),
    },
    measures: {
      portrait: {
        ...(p.box ? { box: p.box } : {}),
        strongestMeasure: excess.measure,
        sharpSeam: round3(sharpSeam(p)),
        sharpSeamThreshold: PORTRAIT_THRESHOLDS.sharpSeam,
        sharpness: round3(p.sharpness),
        seam: round3(p.seam),
        errorLevel: round3(p.errorLevel),
        noise: round3(p.noise),
        blockiness: round3(p.blockiness),
      },
    },
  };
  const r = cues.recapture;
  const score = recaptureScores(r);
  const recapture: Trace = {
    name: "recapture",
    reliability: r.patches > 0 ? evidence : 0,
    globalScore: round3(Math.max(score.luma, score.chroma)),
    facts: {
      ...(r.patches > 0 ? {} : { reason: "page smaller than one spectrum patch" }),
      patchSide: r.patchSide,
      lumaPeakFrequency: round3(r.lumaPeakFrequency),
    },
    measures: {
      recapture: {
        lumaPeak: round3(r.lumaPeak),
        chromaPeak: round3(r.chromaPeak),
        lumaPeakThreshold: RECAPTURE_THRESHOLDS.lumaPeak,
        chromaPeakThreshold: RECAPTURE_THRESHOLDS.chromaPeak,
        lumaAgreement: r.lumaAgreement,
        chromaAgreement: r.chromaAgreement,
        patches: r.patches,
        agreementThreshold: RECAPTURE_THRESHOLDS.agreement,
        strongestChannel: score.luma >= score.chroma ? "luma" : "chroma",
      },
    },
  };
  return [portrait, recapture, greyDocumentTrace(cues.greyDocument)];
}

/**
 * The grey-copy cue as a trace. Block colours survive what wipes out the spectra's fine periods
 * (a last compression at q30, a phone's noise reduction), so its reliability is its own: whether
 * the page's lines placed a document and left a scene around it.
 */
export function greyDocumentTrace(g: GreyDocumentMeasure): Trace {
  return {
    name: "grey_document",
    reliability: g.judged ? 1 : 0,
    globalScore: round3(greyDocumentScore(g)),
    facts: g.box
      ? {
          documentX: g.box[0],
          documentY: g.box[1],
          documentWidth: g.box[2],
          documentHeight: g.box[3],
          documentBlocks: g.documentBlocks,
          sceneBlocks: g.sceneBlocks,
        }
      : { reason: "too few lines to place the document, or no scene around it" },
    measures: {
      greyDocument: {
        documentSpread: round3(g.documentSpread),
        sceneSpread: round3(g.sceneSpread),
        documentSpreadThreshold: GREY_DOCUMENT_THRESHOLDS.documentSpread,
        sceneSpreadThreshold: GREY_DOCUMENT_THRESHOLDS.sceneSpread,
      },
    },
  };
}
