// The ghost image: many identity cards print the holder's portrait a second time, smaller and
// faded (ICAO 9303's secondary image). Where such a second portrait is found beside the main
// one, the two must show the same face: a swap that replaces one and not the other leaves two
// people on one card. Found as the main portrait is (the largest portrait-shaped textured
// area without text) with the main portrait masked out, and kept only where it is a fraction
// of the main one's size and without colour (ghosts are printed in one tone); compared as
// greyscale thumbnails, each normalised to zero mean and unit variance, by correlation.
import type { Box } from "../forensics/types.ts";
import { locatePortraitBlocks } from "./portrait-locate.ts";

/** A ghost is this share of the main portrait's area, or between. */
const MIN_AREA_SHARE = 0.08;
const MAX_AREA_SHARE = 0.7;
/** Mean |R − B| + |G − (R + B) / 2| above this is a coloured area, not a one-tone ghost. */
const MAX_CHROMA = 12;
const THUMB_W = 12;
const THUMB_H = 15;

export interface GhostMeasure {
  /** The ghost in page pixels, or null where none was found. */
  box: Box | null;
  /** Correlation of the ghost's and the main portrait's thumbnails, -1..1 (0 where no ghost). */
  correlation: number;
}

export function measureGhost(
  rgb: Uint8Array,
  width: number,
  edge: ArrayLike<number>,
  cols: number,
  rows: number,
  lines: Box[],
  main: Box,
  block: number,
): GhostMeasure {
  const none: GhostMeasure = { box: null, correlation: 0 };
  const found = locatePortraitBlocks(edge, cols, rows, [...lines, main], block);
  if (!found) return none;
  const box: Box = [found[0] * block, found[1] * block, found[2] * block, found[3] * block];
  const share = (box[2] * box[3]) / (main[2] * main[3]);
  if (share < MIN_AREA_SHARE || share > MAX_AREA_SHARE || chroma(rgb, width, box) > MAX_CHROMA) return none;
  return { box, correlation: correlation(thumbnail(rgb, width, main), thumbnail(rgb, width, box)) };
}

function chroma(rgb: Uint8Array, width: number, [x0, y0, w, h]: Box): number {
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y0 + h; y += 2) {
    for (let x = x0; x < x0 + w; x += 2) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
      sum += Math.abs(r - b) + Math.abs(g - (r + b) / 2);
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/** Box-averaged luma thumbnail, normalised to zero mean and unit variance. */
function thumbnail(rgb: Uint8Array, width: number, [x0, y0, w, h]: Box): Float64Array {
  const out = new Float64Array(THUMB_W * THUMB_H);
  for (let ty = 0; ty < THUMB_H; ty++) {
    for (let tx = 0; tx < THUMB_W; tx++) {
      const [ya, yb] = [y0 + Math.floor((ty * h) / THUMB_H), y0 + Math.floor(((ty + 1) * h) / THUMB_H)];
      const [xa, xb] = [x0 + Math.floor((tx * w) / THUMB_W), x0 + Math.floor(((tx + 1) * w) / THUMB_W)];
      let sum = 0;
      let n = 0;
      for (let y = ya; y < Math.max(ya + 1, yb); y++) {
        for (let x = xa; x < Math.max(xa + 1, xb); x++) {
          const i = (y * width + x) * 3;
          sum += 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
          n++;
        }
      }
      out[ty * THUMB_W + tx] = sum / n;
    }
  }
  let mean = 0;
  for (const v of out) mean += v;
  mean /= out.length;
  let variance = 0;
  for (const v of out) variance += (v - mean) ** 2;
  const sd = Math.sqrt(variance / out.length) || 1;
  return out.map((v) => (v - mean) / sd);
}

const correlation = (a: Float64Array, b: Float64Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0) / a.length;
