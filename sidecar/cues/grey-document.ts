// Recapture cue: a black-and-white copy photographed. Identity documents are printed in colour
// (tinted guilloche, coloured inks, a colour portrait); a photocopy of one is grey. A phone
// photo of that copy lying on a desk records the desk, a hand or a magazine in colour around a
// document that has none. So the cue compares where the page's text is (the document) with
// the frame around it (the scene): colour spread within the document, measured around its own
// median colour so that a white-balance cast is no colour, against the scene's distance from
// that colour. A grey scan or a grey photo has no colour anywhere and is not judged; a card
// filling the frame leaves no scene and is not judged.
//
// Colours are block means (8 x 8 pixels): averaging takes out sensor noise and the colour a
// JPEG's chroma subsampling and ringing smear along strong edges, which a photocopy's black
// text would otherwise show. Chroma is not divided by brightness (as chromaticity would be, to
// make a cast of the light one colour at every brightness): that raised the dark blocks' noise
// until printed and photographed colour cards of the seed-7 corpus fell to 6.9, and it found
// fewer grey copies. A strong cast on a copy thick with text spreads its blocks instead: a
// copy missed, no one accused.
import { rankQuantile, upperMedian } from "../../src/numeric.ts";
import type { Box } from "../forensics/types.ts";

const BLOCK = 8;
/**
 * Every other pixel of a block each way: 16 samples give its mean colour as well, at a quarter of
 * the reads (an 8-megapixel phone frame took 127 ms reading all of them).
 */
const STEP = 2;
/** Lines that place the document: fewer say too little about where it lies. */
const MIN_LINES = 3;
/**
 * The document is where the middle 90% of the lines' edges lie (their 5th and 95th percentiles on
 * each side): a stray line read in the scene (a magazine under the card) moves it little.
 */
const EDGE_QUANTILE = 0.05;
/** The scene starts this share of the document's size beyond it, past its border and shadow. */
const SCENE_MARGIN = 0.15;
/** Blocks each side needs to be judged: about 3,200 pixels. */
const MIN_BLOCKS = 50;
/** Blocks this dark or this bright have lost their colour to the sensor's range. */
const DARK = 20;
const BRIGHT = 240;
/** The document's spread is its 95th percentile: a portrait or a seal is a small part of a card. */
const DOCUMENT_QUANTILE = 0.95;
/** The scene's colour is its 75th percentile: a desk, a hand or a page cover most of it. */
const SCENE_QUANTILE = 0.75;

export interface GreyDocumentMeasure {
  /** Whether both sides had enough blocks: the page's lines placed a document and left a scene. */
  judged: boolean;
  /** The document as the lines place it, in pixels (x, y, width, height); absent when not judged. */
  box?: Box;
  /**
   * How far the document's block colours lie from their median (95th percentile; the chroma of
   * BT.601, 0-255 units).
   */
  documentSpread: number;
  /** How far the scene's block colours lie from the document's median (75th percentile). */
  sceneSpread: number;
  documentBlocks: number;
  sceneBlocks: number;
}

const NOT_JUDGED: GreyDocumentMeasure = {
  judged: false,
  documentSpread: 0,
  sceneSpread: 0,
  documentBlocks: 0,
  sceneBlocks: 0,
};

/** The document's box from the lines' edges; null for too few lines. */
function documentBox(lines: readonly Box[]): Box | null {
  if (lines.length < MIN_LINES) return null;
  const edge = (of: (b: Box) => number, q: number) => rankQuantile(lines.map(of), q);
  const left = edge((b) => b[0], EDGE_QUANTILE);
  const top = edge((b) => b[1], EDGE_QUANTILE);
  const right = edge((b) => b[0] + b[2], 1 - EDGE_QUANTILE);
  const bottom = edge((b) => b[1] + b[3], 1 - EDGE_QUANTILE);
  return right > left && bottom > top ? [left, top, right - left, bottom - top] : null;
}

export function measureGreyDocument(
  rgb: Uint8Array,
  width: number,
  height: number,
  lines: readonly Box[],
): GreyDocumentMeasure {
  const box = documentBox(lines);
  const cols = Math.floor(width / BLOCK);
  const rows = Math.floor(height / BLOCK);
  if (!box || cols === 0 || rows === 0) return NOT_JUDGED;
  const [x, y, w, h] = box;
  const inDocument = (bx: number, by: number) => bx >= x && bx + BLOCK <= x + w && by >= y && by + BLOCK <= y + h;
  const mx = SCENE_MARGIN * w;
  const my = SCENE_MARGIN * h;
  const inScene = (bx: number, by: number) =>
    bx + BLOCK <= x - mx || bx >= x + w + mx || by + BLOCK <= y - my || by >= y + h + my;

  // Block means as BT.601 chroma (Cb, Cr scaled to 0-255 units around 0).
  const document: [number, number][] = [];
  const scene: [number, number][] = [];
  const n = (BLOCK / STEP) ** 2;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const bx = col * BLOCK;
      const by = row * BLOCK;
      const where = inDocument(bx, by) ? document : inScene(bx, by) ? scene : null;
      if (!where) continue;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < BLOCK; dy += STEP) {
        let i = ((by + dy) * width + bx) * 3;
        for (let dx = 0; dx < BLOCK; dx += STEP, i += 3 * STEP) {
          r += rgb[i]!;
          g += rgb[i + 1]!;
          b += rgb[i + 2]!;
        }
      }
      r /= n;
      g /= n;
      b /= n;
      const luma = 0.299 * r + 0.587 * g + 0.114 * b;
      if (luma < DARK || luma > BRIGHT) continue;
      where.push([0.564 * (b - luma), 0.713 * (r - luma)]);
    }
  }
  if (document.length < MIN_BLOCKS || scene.length < MIN_BLOCKS) return NOT_JUDGED;
  const cb = upperMedian(document.map((c) => c[0]));
  const cr = upperMedian(document.map((c) => c[1]));
  const distance = ([u, v]: [number, number]) => Math.hypot(u - cb, v - cr);
  return {
    judged: true,
    box: box.map(Math.round) as Box,
    documentSpread: rankQuantile(document.map(distance), DOCUMENT_QUANTILE),
    sceneSpread: rankQuantile(scene.map(distance), SCENE_QUANTILE),
    documentBlocks: document.length,
    sceneBlocks: scene.length,
  };
}
