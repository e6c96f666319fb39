// The ghost image: many identity documents print the holder's portrait a second time, smaller
// and in one faded tone (ICAO 9303's secondary image). A genuine card's ghost is the same photo
// as its portrait, so the portrait, shrunk to the ghost's size, is found again on the card; a
// swap that replaced the portrait and not the ghost leaves two different faces.
//
// Searched without a template: the located portrait is shrunk to each size a ghost takes (a
// quarter to four fifths of its width) and slid over the page outside it, compared by normalised
// cross-correlation of luminance on a grid of cells (the portrait TEMPLATE_COLS cells wide), so
// that fading, tone and contrast do not count. Where the best place is, the same comparison of
// the cells' band-pass residuals (each cell less the mean of the 5 x 5 cells around it) says
// whether the face's features repeat and not only a head-and-shoulders silhouette.
//
// A fact for an analyst, not a flag: where no repeat is found that says nothing, since many
// templates print no ghost, and a ghost under holograms or guilloche, or a portrait located
// wrongly, reads poorly (thresholds.ts).
import { BlockSums } from "../forensics/block-sums.ts";
import { overlaps } from "../forensics/boxes.ts";
import { lumaAt } from "../forensics/graph-spec.ts";
import type { Box } from "../forensics/types.ts";
import { GHOST_THRESHOLDS } from "./thresholds.ts";

/** The portrait is compared as this many cells across (and as many down as its shape gives). */
const TEMPLATE_COLS = 16;
/** The ghost's width as a share of the portrait's, searched in these steps. */
const SCALES = [0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
/** A cell narrower than this many pixels holds too little of the ghost to compare. */
const MIN_CELL = 1.5;
/** A portrait narrower than this (4 pixels a cell) is too small to be searched for at all. */
const MIN_PORTRAIT_WIDTH = 64;
/**
 * A scale whose grid would hold more cells than this is not searched: it bounds the time a page
 * takes (a small ghost on a large page would mean a million places to try), and a ghost that
 * small is too few pixels a cell to show a face.
 */
const MAX_GRID_CELLS = 40_000;
/** The grid is tried every STRIDE cells; the best place is then refined off the grid. */
const STRIDE = 2;
/** Offsets, in cells, at which the best place is compared again. */
const OFFSETS = [-1, -0.5, 0, 0.5, 1];
/** Half the side of the neighbourhood a cell's band-pass residual is taken against. */
const BAND = 2;

export interface GhostMeasure {
  /** The best repeat of the portrait in page pixels, or null where none could be searched. */
  box: Box | null;
  /** Correlation of luminance with the shrunk portrait there, -1..1. */
  correlation: number;
  /** Correlation of the band-pass residuals there, -1..1: the features, not the silhouette. */
  detail: number;
  /** Both at or above their thresholds: the portrait is repeated on the card. */
  repeated: boolean;
}

export const NO_GHOST: GhostMeasure = { box: null, correlation: 0, detail: 0, repeated: false };

/**
 * The page's luminance over a summed-area table (BlockSums), for the mean of any rectangle in
 * constant time, kept at one entry per `step` x `step` pixels (their mean) rather than eight
 * bytes a pixel.
 */
class Luma {
  private readonly sums: BlockSums;

  constructor(
    rgb: Uint8Array,
    readonly width: number,
    readonly height: number,
    private readonly step: number,
  ) {
    const cols = Math.floor(width / step);
    const rows = Math.floor(height / step);
    const means = new Float64Array(cols * rows);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++)
        means[r * cols + c] = meanLuma(rgb, width, c * step, r * step, (c + 1) * step, (r + 1) * step);
    }
    this.sums = new BlockSums(cols, rows, means);
  }

  /** Mean over [x0, x1) x [y0, y1) in page pixels, to the table's step and at least one entry. */
  mean(x0: number, y0: number, x1: number, y1: number): number {
    const { step } = this;
    const { cols, rows } = this.sums;
    const xa = Math.max(0, Math.min(cols - 1, Math.round(x0 / step)));
    const ya = Math.max(0, Math.min(rows - 1, Math.round(y0 / step)));
    const xb = Math.max(xa + 1, Math.min(cols, Math.round(x1 / step)));
    const yb = Math.max(ya + 1, Math.min(rows, Math.round(y1 / step)));
    return this.sums.sum(xa, ya, xb, yb) / ((xb - xa) * (yb - ya));
  }

  /** The rectangle as cols x rows cell means. */
  cells(x0: number, y0: number, cell: number, cols: number, rows: number): Float64Array {
    const out = new Float64Array(cols * rows);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        out[r * cols + c] = this.mean(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell);
      }
    }
    return out;
  }
}

/** Mean luminance of the pixels [xa, xb) x [ya, yb) (0 where that holds none). */
function meanLuma(rgb: Uint8Array, width: number, xa: number, ya: number, xb: number, yb: number): number {
  let sum = 0;
  for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) sum += lumaAt(rgb, (y * width + x) * 3);
  return sum / Math.max(1, (xb - xa) * (yb - ya));
}

/** The portrait as TEMPLATE_COLS x rows cell means of luminance, read from its own pixels. */
function portraitCells(rgb: Uint8Array, width: number, [x0, y0, w, h]: Box, rows: number): Float64Array {
  const out = new Float64Array(TEMPLATE_COLS * rows);
  for (let r = 0; r < rows; r++) {
    const [ya, yb] = [y0 + Math.floor((r * h) / rows), y0 + Math.floor(((r + 1) * h) / rows)];
    for (let c = 0; c < TEMPLATE_COLS; c++) {
      const [xa, xb] = [x0 + Math.floor((c * w) / TEMPLATE_COLS), x0 + Math.floor(((c + 1) * w) / TEMPLATE_COLS)];
      out[r * TEMPLATE_COLS + c] = meanLuma(rgb, width, xa, ya, xb, yb);
    }
  }
  return out;
}

/** A template less its mean, and its norm: what every comparison with it needs, made once. */
interface Centred {
  v: Float64Array;
  norm: number;
}

function centred(v: Float64Array): Centred {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length;
  let sq = 0;
  const out = v.map((x) => {
    const d = x - mean;
    sq += d * d;
    return d;
  });
  return { v: out, norm: Math.sqrt(sq) };
}

/** Each cell less the mean of the cells within BAND of it. */
function bandPass(v: Float64Array, cols: number, rows: number): Float64Array {
  const out = new Float64Array(v.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      let n = 0;
      for (let y = Math.max(0, r - BAND); y <= Math.min(rows - 1, r + BAND); y++) {
        for (let x = Math.max(0, c - BAND); x <= Math.min(cols - 1, c + BAND); x++) {
          sum += v[y * cols + x]!;
          n++;
        }
      }
      out[r * cols + c] = v[r * cols + c]! - sum / n;
    }
  }
  return out;
}

/**
 * Normalised cross-correlation of a centred template with a window of as many values, from the
 * window's sum, sum of squares and dot product with the template: the template is zero-mean, so
 * the dot product needs no window mean.
 */
function normalised(t: Centred, dot: number, sum: number, sq: number): number {
  const spread = Math.sqrt(Math.max(0, sq - (sum * sum) / t.v.length));
  return spread > 0 && t.norm > 0 ? dot / (spread * t.norm) : 0;
}

/** Normalised cross-correlation of a centred template with a window of as many values. */
function correlation(t: Centred, window: Float64Array): number {
  let sum = 0;
  let sq = 0;
  let dot = 0;
  window.forEach((v, i) => {
    sum += v;
    sq += v * v;
    dot += v * t.v[i]!;
  });
  return normalised(t, dot, sum, sq);
}

interface Place {
  scale: number;
  x: number;
  y: number;
  correlation: number;
}

/**
 * The best place for the portrait (its cells `t`, zero-mean, with their norm) shrunk to `scale`,
 * on the page's cell grid, outside `main`.
 */
function bestAtScale(luma: Luma, t: Centred, rows: number, main: Box, scale: number): Place | null {
  const cell = (main[2] * scale) / TEMPLATE_COLS;
  if (cell < MIN_CELL) return null;
  const gridCols = Math.floor(luma.width / cell);
  const gridRows = Math.floor(luma.height / cell);
  if (gridCols < TEMPLATE_COLS || gridRows < rows || gridCols * gridRows > MAX_GRID_CELLS) return null;
  const grid = luma.cells(0, 0, cell, gridCols, gridRows);
  let best: Place | null = null;
  for (let gy = 0; gy + rows <= gridRows; gy += STRIDE) {
    for (let gx = 0; gx + TEMPLATE_COLS <= gridCols; gx += STRIDE) {
      const box: Box = [gx * cell, gy * cell, TEMPLATE_COLS * cell, rows * cell];
      if (overlaps(box, main)) continue;
      let sum = 0;
      let sq = 0;
      let dot = 0;
      for (let r = 0; r < rows; r++) {
        const row = (gy + r) * gridCols + gx;
        for (let c = 0; c < TEMPLATE_COLS; c++) {
          const v = grid[row + c]!;
          sum += v;
          sq += v * v;
          dot += v * t.v[r * TEMPLATE_COLS + c]!;
        }
      }
      const score = normalised(t, dot, sum, sq);
      if (!best || score > best.correlation) best = { scale, x: box[0], y: box[1], correlation: score };
    }
  }
  return best;
}

/**
 * The portrait `main` searched for again on the page (rgb, 3 bytes a pixel): the best place and
 * how alike it is there, in luminance and in detail.
 */
export function measureGhost(rgb: Uint8Array, width: number, height: number, main: Box): GhostMeasure {
  if (main[2] < MIN_PORTRAIT_WIDTH) return NO_GHOST;
  const rows = Math.max(4, Math.round((TEMPLATE_COLS * main[3]) / main[2]));
  // The portrait's cells are averaged from its own pixels. The page's table is kept at a step
  // that the smallest cell a searched grid can have (a grid holds MAX_GRID_CELLS at most) still
  // spans twice: some 160,000 entries whatever the page's size.
  const template = portraitCells(rgb, width, main, rows);
  const smallestGridCell = Math.sqrt((width * height) / MAX_GRID_CELLS);
  const luma = new Luma(rgb, width, height, Math.max(1, Math.floor(smallestGridCell / 2)));
  const centredTemplate = centred(template);
  let best: Place | null = null;
  for (const scale of SCALES) {
    const place = bestAtScale(luma, centredTemplate, rows, main, scale);
    if (place && (!best || place.correlation > best.correlation)) best = place;
  }
  if (!best) return NO_GHOST;
  // The grid placed the ghost to within STRIDE cells: both comparisons are made again around it
  // in steps of half a cell, off the grid, and the best of each kept. The detail is compared
  // only here, where the luminance matched best.
  const detailTemplate = centred(bandPass(template, TEMPLATE_COLS, rows));
  const cell = (main[2] * best.scale) / TEMPLATE_COLS;
  let alike = best.correlation;
  let detail = -1;
  for (const dy of OFFSETS) {
    for (const dx of OFFSETS) {
      const at = luma.cells(best.x + dx * cell, best.y + dy * cell, cell, TEMPLATE_COLS, rows);
      alike = Math.max(alike, correlation(centredTemplate, at));
      detail = Math.max(detail, correlation(detailTemplate, bandPass(at, TEMPLATE_COLS, rows)));
    }
  }
  const box: Box = [Math.round(best.x), Math.round(best.y), Math.round(TEMPLATE_COLS * cell), Math.round(rows * cell)];
  const t = GHOST_THRESHOLDS;
  return {
    box,
    correlation: alike,
    detail,
    repeated: alike >= t.correlation && detail >= t.detail,
  };
}
