// Copy-move (cloned regions), block matching after Fridrich et al. 2003: overlapping 16x16
// blocks described by their low-frequency DCT (computed by the forensic graph), sorted
// lexicographically on quantised features so that similar blocks become neighbours, then
// shift-vector voting: a clone is many blocks sharing one displacement, verified by the
// correlation of the two whole areas. Flat blocks (background) are never compared, and a
// shift must gather more blocks than any single glyph yields.
// Measured on rendered statements: genuinely repeated rows of text are pixel-identical and
// correlate at 0.97-0.99 even in the high-pass residual, exactly like a clone of digits.
// Pixels cannot tell them apart, so a pair of blocks that both lie in OCR text lines is
// never counted: clones are judged only where at least one side is not read as text.
import type { Box, CopyMove } from "./types.ts";
import { BLOCK, CM_BLOCK, CM_FREQS, CM_STEP, LUMA_WEIGHTS } from "./graph-spec.ts";

const FEATURES = CM_FREQS * CM_FREQS;
/** AC energy (sum of squared non-DC features) below this is flat paper; 16x16 blocks with a std of ~6 grey levels. */
const MIN_AC_ENERGY = CM_BLOCK * CM_BLOCK * 36;
/** Quantisation step of the features used only for sorting. */
const SORT_STEP = 24;
/** How many sorted neighbours each block is compared with. */
const NEIGHBOURS = 8;
/** Features closer than this (Euclidean, grey levels x 16) count as the same block. */
const MAX_FEATURE_DISTANCE = 40;
/** Clones closer than this are the same area smeared, not a copy. */
const MIN_SHIFT = 3 * CM_BLOCK;
/** Blocks voting for one shift: a 60x30 paste of digits yields ~100 when its shift is even in both axes (blocks sit every CM_STEP pixels; an odd shift leaves every block pair a pixel apart and their features too far apart to match, a measured limitation). */
export const MIN_VOTES = 40;
/** Normalised cross-correlation the two areas must reach. */
export const MIN_CORRELATION = 0.9;
const MAX_RESULTS = 3;
/** Largest clusters verified by correlation; bounds the work on pages full of repeated text. */
const MAX_VERIFIED = 400;

export interface CopyMoveInput {
  features: Float32Array;
  cmCols: number;
  cmRows: number;
  rgb: Uint8Array;
  width: number;
  /** 1 for copy-move blocks that overlap an OCR text line. */
  textMask: Uint8Array;
}

export interface CopyMoveResult {
  copyMoves: CopyMove[];
  /** Blocks that carried enough texture to be compared. */
  texturedBlocks: number;
  /** Votes of the strongest shift, verified or not. */
  bestVotes: number;
}

export function findCopyMoves(input: CopyMoveInput): CopyMoveResult {
  const { features, cmCols, cmRows } = input;
  const plane = cmCols * cmRows;
  const textured: number[] = [];
  for (let i = 0; i < plane; i++) {
    let ac = 0;
    for (let k = 1; k < FEATURES; k++) ac += features[k * plane + i]! ** 2;
    if (ac >= MIN_AC_ENERGY) textured.push(i);
  }
  const keys = new Int16Array(textured.length * FEATURES);
  textured.forEach((block, j) => {
    for (let k = 0; k < FEATURES; k++) keys[j * FEATURES + k] = Math.round(features[k * plane + block]! / SORT_STEP);
  });
  const order = textured.map((_, j) => j).sort((a, b) => {
    for (let k = 0; k < FEATURES; k++) {
      const d = keys[a * FEATURES + k]! - keys[b * FEATURES + k]!;
      if (d !== 0) return d;
    }
    return 0;
  });

  const votes = new Map<number, number[]>();
  const limit = MAX_FEATURE_DISTANCE ** 2;
  for (let s = 0; s < order.length; s++) {
    const a = textured[order[s]!]!;
    for (let t = s + 1; t <= s + NEIGHBOURS && t < order.length; t++) {
      const b = textured[order[t]!]!;
      let d = 0;
      for (let k = 0; k < FEATURES && d < limit; k++) d += (features[k * plane + a]! - features[k * plane + b]!) ** 2;
      if (d >= limit || (input.textMask[a] === 1 && input.textMask[b] === 1)) continue;
      let [from, to] = [a, b];
      let dx = ((to % cmCols) - (from % cmCols)) * CM_STEP;
      let dy = (Math.floor(to / cmCols) - Math.floor(from / cmCols)) * CM_STEP;
      if (dy < 0 || (dy === 0 && dx < 0)) {
        [from, to, dx, dy] = [to, from, -dx, -dy];
      }
      // Identical content at a shift that keeps the JPEG grid phase is compressed identically,
      // so a genuinely repeated row of text and a clone cannot be told apart: not judged.
      if (Math.hypot(dx, dy) < MIN_SHIFT || (dx % BLOCK === 0 && dy % BLOCK === 0)) continue;
      const key = dy * 65536 + dx;
      const list = votes.get(key);
      if (list) list.push(from);
      else votes.set(key, [from]);
    }
  }

  // A shift shared by blocks all over the page (a repeated column of dates) is split into
  // connected clusters, each of which must stand on its own.
  const clusters: { dx: number; dy: number; blocks: number[] }[] = [];
  for (const [key, sources] of votes) {
    if (sources.length < MIN_VOTES) continue;
    const dy = Math.round(key / 65536);
    for (const blocks of connectedClusters(sources, cmCols)) {
      if (blocks.length >= MIN_VOTES) clusters.push({ dx: key - dy * 65536, dy, blocks });
    }
  }
  clusters.sort((p, q) => q.blocks.length - p.blocks.length);
  const bestVotes = clusters[0]?.blocks.length ?? 0;
  const copyMoves: CopyMove[] = [];
  for (const { dx, dy, blocks } of clusters.slice(0, MAX_VERIFIED)) {
    const source = blocksBounds(blocks, cmCols);
    // Blocks sit every CM_STEP pixels, so an odd shift is voted for as its even neighbours: refine it.
    let target: Box = [source[0] + dx, source[1] + dy, source[2], source[3]];
    let score = -1;
    for (let oy = -1; oy <= 1; oy++) {
      for (let ox = -1; ox <= 1; ox++) {
        const candidate: Box = [source[0] + dx + ox, source[1] + dy + oy, source[2], source[3]];
        if (!inside(candidate, input)) continue;
        const c = correlation(input, source, candidate);
        if (c > score) [score, target] = [c, candidate];
      }
    }
    if (score >= MIN_CORRELATION && !copyMoves.some((c) => overlaps(c.source, source) && overlaps(c.target, target))) {
      copyMoves.push({ source, target, score });
      if (copyMoves.length >= MAX_RESULTS) break;
    }
  }
  return { copyMoves, texturedBlocks: textured.length, bestVotes };
}

/** Groups blocks (indices into the copy-move grid) into 8-connected clusters. */
function connectedClusters(blocks: number[], cmCols: number): number[][] {
  const pending = new Set(blocks);
  const clusters: number[][] = [];
  for (const start of blocks) {
    if (!pending.delete(start)) continue;
    const cluster = [start];
    for (let i = 0; i < cluster.length; i++) {
      const b = cluster[i]!;
      const x = b % cmCols;
      for (let oy = -1; oy <= 1; oy++) {
        for (let ox = -1; ox <= 1; ox++) {
          const n = b + oy * cmCols + ox;
          if (x + ox >= 0 && x + ox < cmCols && pending.delete(n)) cluster.push(n);
        }
      }
    }
    clusters.push(cluster);
  }
  return clusters;
}

/** Bounds of the blocks (index into the copy-move grid) as a pixel box. */
function blocksBounds(blocks: number[], cmCols: number): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of blocks) {
    const x = (b % cmCols) * CM_STEP;
    const y = Math.floor(b / cmCols) * CM_STEP;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + CM_BLOCK);
    y1 = Math.max(y1, y + CM_BLOCK);
  }
  return [x0, y0, x1 - x0, y1 - y0];
}

/** Marks the copy-move blocks that overlap any of the boxes. */
export function textBlockMask(boxes: Box[], cmCols: number, cmRows: number): Uint8Array {
  const mask = new Uint8Array(cmCols * cmRows);
  for (const [x, y, w, h] of boxes) {
    const i0 = Math.max(0, Math.ceil((x - CM_BLOCK) / CM_STEP));
    const i1 = Math.min(cmCols - 1, Math.floor((x + w) / CM_STEP));
    const j0 = Math.max(0, Math.ceil((y - CM_BLOCK) / CM_STEP));
    const j1 = Math.min(cmRows - 1, Math.floor((y + h) / CM_STEP));
    for (let j = j0; j <= j1; j++) mask.fill(1, j * cmCols + i0, j * cmCols + i1 + 1);
  }
  return mask;
}

const inside = (b: Box, { rgb, width }: CopyMoveInput) =>
  b[0] >= 0 && b[1] >= 0 && b[0] + b[2] <= width && (b[1] + b[3]) * width * 3 <= rgb.length;

const overlaps = (a: Box, b: Box) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

const luma = (rgb: Uint8Array, p: number) => LUMA_WEIGHTS[0] * rgb[p]! + LUMA_WEIGHTS[1] * rgb[p + 1]! + LUMA_WEIGHTS[2] * rgb[p + 2]!;

/** Luma minus the mean of its 4 neighbours: the compression noise a clone carries along and a genuinely repeated glyph does not share. */
function highPass(rgb: Uint8Array, width: number, p: number): number {
  const row = width * 3;
  if (p < row + 3 || p + row + 3 >= rgb.length) return 0;
  return luma(rgb, p) - (luma(rgb, p - 3) + luma(rgb, p + 3) + luma(rgb, p - row) + luma(rgb, p + row)) / 4;
}

/** Zero-mean normalised cross-correlation of the high-passed luma of two equal-sized areas. */
function correlation({ rgb, width }: CopyMoveInput, a: Box, b: Box): number {
  const n = a[2] * a[3];
  const va = new Float64Array(n);
  const vb = new Float64Array(n);
  let i = 0;
  for (let y = 0; y < a[3]; y++) {
    for (let x = 0; x < a[2]; x++, i++) {
      const pa = ((a[1] + y) * width + a[0] + x) * 3;
      const pb = ((b[1] + y) * width + b[0] + x) * 3;
      va[i] = highPass(rgb, width, pa);
      vb[i] = highPass(rgb, width, pb);
    }
  }
  const ma = va.reduce((s, v) => s + v, 0) / n;
  const mb = vb.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let j = 0; j < n; j++) {
    const da = va[j]! - ma;
    const db = vb[j]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}
