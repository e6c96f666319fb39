// What the pixel forensics returns for one page. Scores are evidence to weigh, never a
// verdict: every trace says how far it can be trusted on this image (`reliability`), and
// line and region scores are robust z-scores against the rest of the same page, so a page
// that is uniformly recompressed or resized has nothing that stands out.
export type { OcrLine } from "../ocr/engine.ts";

export type Box = [x: number, y: number, width: number, height: number];

/**
 * An area compressed once on a page compressed twice (single-compressed-areas.ts). Declared
 * here, with the other result shapes, so that this file imports no analysis code: the
 * analysis files all import Box from it.
 */
export interface SingleCompressedArea {
  /** Bounds of its tiles, in page pixels. */
  box: Box;
  tiles: number;
  /** Mean robust z of its tiles. */
  meanZ: number;
}

type TraceName =
  | "ela"
  | "noise"
  | "jpeg_grid"
  | "double_quant"
  | "copy_move"
  | "portrait"
  | "recapture"
  | "grey_document";

export interface Trace {
  name: TraceName;
  /**
   * 0 = says nothing on this image (too small, too compressed, too little text), 1 = fully usable.
   */
  reliability: number;
  /** Page-level strength of the trace; its meaning is per trace and described in `facts`. */
  globalScore: number;
  /** What it measured, for people; what the API judges it by is in `measures`. */
  facts: Record<string, number | string>;
  measures?: TraceMeasures;
}

/**
 * The thresholds and measures the API judges a trace by, one kind per trace, sent as the
 * proto's typed ForensicTrace measures (sidecar/server/analyze-document.ts). The field names
 * are also the fact names that APIs older than those fields read, and are sent as such.
 */
export type TraceMeasures =
  | { residual: { lineThreshold: number } }
  | { doubleQuant: { lineThreshold: number; areaThreshold: number; areaReliability: number } }
  | { copyMove: { minCorrelation: number; paperNoise?: number; periodicMatches?: number } }
  | { portrait: PortraitMeasures }
  | { recapture: RecaptureMeasures }
  | { greyDocument: GreyDocumentMeasures };

/** log2 of the portrait's value over the rest of the card's (sidecar/cues/portrait.ts). */
interface PortraitMeasures {
  /** Absent where no portrait was found. */
  box?: Box;
  strongestMeasure: "sharpSeam";
  sharpSeam: number;
  sharpSeamThreshold: number;
  sharpness: number;
  seam: number;
  errorLevel: number;
  noise: number;
  blockiness: number;
}

/** Spectral peaks of patches across the page, log10 (sidecar/cues/recapture.ts). */
interface RecaptureMeasures {
  lumaPeak: number;
  chromaPeak: number;
  lumaPeakThreshold: number;
  chromaPeakThreshold: number;
  lumaAgreement: number;
  chromaAgreement: number;
  patches: number;
  agreementThreshold: number;
  strongestChannel: "luma" | "chroma";
}

/** Colour spread of the document and of the scene around it (sidecar/cues/grey-document.ts). */
interface GreyDocumentMeasures {
  documentSpread: number;
  sceneSpread: number;
  documentSpreadThreshold: number;
  sceneSpreadThreshold: number;
}

export interface Region {
  box: Box;
  /** Robust z-score of the region against the page's other tiles (copy_move: match correlation). */
  score: number;
  trace: TraceName;
}

export interface LineScore {
  /** Index into the OCR lines passed in. */
  lineIndex: number;
  trace: TraceName;
  /**
   * Robust z-score of this line against the page's other lines; positive = more traces than the
   * rest.
   */
  score: number;
}

export interface CopyMove {
  source: Box;
  target: Box;
  /** Normalised cross-correlation of the two areas, 0..1. */
  score: number;
}

export interface PixelForensics {
  traces: Trace[];
  regions: Region[];
  lineScores: LineScore[];
  copyMoves: CopyMove[];
  /** Areas away from text compressed once on a page compressed twice, largest first. */
  singleCompressedAreas: SingleCompressedArea[];
  /** Grey map of the strongest outlier score per cell, 0 = unremarkable; at most 64x64. */
  heatmap: { width: number; height: number; data: Uint8Array };
}

export interface PixelInput {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** The original bytes when the page is a JPEG image. */
  jpeg?: Uint8Array;
}
