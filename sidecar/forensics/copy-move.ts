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
// Measured on captured identity documents and statements of the evaluation corpus (23 genuine
// scans, photos and re-saves): security backgrounds (guilloches, wave lines) and rows of MRZ
// fillers outside the OCR lines repeat at a fixed period and correlate at 0.90-1.00 between
// repeats, which reported clones on 17 of the 23 genuine images. A printed pattern repeats
// again one period further or at a shorter period along the same direction; a clone is one
// copy. Such matches are counted (periodicMatches) but not reported: 1 of 23 genuine images
// keeps a reported clone.
import type { Box, CopyMove } from "./types.ts";
import { overlaps } from "./boxes.ts";
import { BLOCK, CM_BLOCK, CM_FREQS, CM_MIN_AC_ENERGY, CM_STEP, cmBasis, lumaAt } from "./graph-spec.ts";
import { type TimeSlices, timeSlices } from "../../src/limits/time-slices.ts";
import type { ForensicMaps } from "./graph.ts";
import type { Prepared } from "./prepare.ts";

const FEATURES = CM_FREQS * CM_FREQS;
/** Quantisation step of the features used only for sorting. */
const SORT_STEP = 24;
/**
 * Sort keys are offset by this to index a radix pass. A feature is a 16x16 block of 0..255
 * against two basis rows whose absolute sums are at most 4, so |feature| <= 4080 and
 * |key| <= 170: the keys fit in 0..2 * KEY_OFFSET.
 */
const KEY_OFFSET = 256;
/** How many sorted neighbours each block is compared with. */
const NEIGHBOURS = 8;
/** Features closer than this (Euclidean, grey levels x 16) count as the same block. */
const MAX_FEATURE_DISTANCE = 40;
/** Clones closer than this are the same area smeared, not a copy. */
const MIN_SHIFT = 3 * CM_BLOCK;
/**
 * Blocks voting for one shift: a 60x30 paste of digits yields ~100. The graph samples blocks
 * every CM_STEP pixels, so a clone moved by an odd number of pixels would find no block at its
 * target; outside text lines the blocks at odd offsets are added here, so that any shift
 * between text and non-text gathers the same votes as an even one.
 */
const MIN_VOTES = 40;
/** Normalised cross-correlation the two areas must reach. */
export const MIN_CORRELATION = 0.9;
/**
 * A match that repeats (one shift further, or at a shorter period) with this share of its own
 * correlation is a periodic print. Measured: the ~1,900 matches verified on 53 corpus images
 * repeat at 0.61-1.10 of their correlation but one (0.13); the clones of the unit tests
 * (statements, a patch of digits pasted beside the text) at 0.04-0.24.
 */
const PERIODIC_SHARE = 0.45;
/**
 * Share of the match's correlation a run of one glyph keeps between its repeats (repeatsAlongAxis).
 */
const RUN_SHARE = 0.8;
/**
 * Shorter periods tried along the shift, in pixels: glyph pitch and guilloche waves at 150-300 dpi.
 */
const MIN_PERIOD = 6;
/** Shifts along each axis that leave a straight rule unchanged and move any glyph or texture. */
const STRAIGHT_SHIFTS = [8, 12];
const STRAIGHT_CORRELATION = 0.95;
const MAX_PERIOD = 64;
const MAX_RESULTS = 3;
/**
 * Textured blocks of the graph beyond which a page's clone search is not run. Block matching
 * grows with the page: a 13-megapixel photo (4584 x 2903, in the real-documents set) gave
 * 10.3 million blocks once the odd offsets were added and took 30-60 s on 2 cores. (The search
 * hands the event loop back every few milliseconds, src/limits/time-slices.ts, so a long one
 * no longer starves the sidecar's gRPC keepalives; the bound is on time.) A million blocks is a fully textured page of about 4 megapixels; every corpus page (at most
 * 1600 px a side) stays under it. Past it the search says it did not judge (reliability 0),
 * which lowers coverage and accuses no one.
 */
export const MAX_COMPARED_BLOCKS = 1_000_000;
/** Largest clusters verified by correlation; bounds the work on pages full of repeated text. */
const MAX_VERIFIED = 400;

export interface CopyMoveInput {
  /** The graph's textured blocks (ascending indices on the cmCols x cmRows grid)... */
  blocks: Int32Array;
  /** ...and their FEATURES planes of blocks.length values. */
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
  /** Blocks that carried enough texture to be compared (odd-offset ones included). */
  texturedBlocks: number;
  /** Votes of the strongest shift, verified or not. */
  bestVotes: number;
  /**
   * Matches that correlated like clones but repeat at a period (printed patterns), not reported.
   */
  periodicMatches: number;
  /** False where the page held more blocks than MAX_COMPARED_BLOCKS and nothing was compared. */
  judged: boolean;
}

/** The search's input: the graph's textured blocks of the prepared page, and its OCR lines' blocks. */
export const copyMoveInput = (maps: ForensicMaps, prepared: Prepared, lines: Box[]): CopyMoveInput => ({
  blocks: maps.copyMoveBlocks,
  features: maps.copyMoveFeatures,
  cmCols: maps.cmCols,
  cmRows: maps.cmRows,
  rgb: prepared.rgb,
  width: prepared.width,
  textMask: textBlockMask(lines, maps.cmCols, maps.cmRows),
});

/** Textured blocks to compare: top-left pixel, whether in a text line, and FEATURES values each. */
interface Blocks {
  count: number;
  x: Int32Array;
  y: Int32Array;
  text: Uint8Array;
  features: Float64Array;
}

/**
 * The page's clones. A search runs for seconds on a large photo, so it pauses every slice to let
 * the sidecar answer its calls and pings meanwhile.
 */
export async function findCopyMoves(input: CopyMoveInput, slices = timeSlices()): Promise<CopyMoveResult> {
  const nothing = (judged: boolean): CopyMoveResult => ({
    copyMoves: [],
    texturedBlocks: input.blocks.length,
    bestVotes: 0,
    periodicMatches: 0,
    judged,
  });
  if (input.blocks.length > MAX_COMPARED_BLOCKS) return nothing(false);
  // Text-to-text pairs are never judged: without a textured block outside text, nothing can vote.
  let nonText = 0;
  for (const i of input.blocks) if (input.textMask[i] !== 1) nonText++;
  if (nonText === 0) return nothing(true);
  const blocks = await texturedBlocks(input, nonText, slices);
  const { count, features } = blocks;
  const order = await sortedByKeys(blocks, slices);

  const votes = new Map<number, number[]>();
  const limit = MAX_FEATURE_DISTANCE ** 2;
  for (let s = 0; s < order.length; s++) {
    if ((s & 1023) === 0 && slices.due()) await slices.pause();
    const a = order[s]!;
    for (let t = s + 1; t <= s + NEIGHBOURS && t < order.length; t++) {
      const b = order[t]!;
      if (blocks.text[a] && blocks.text[b]) continue;
      let d = 0;
      for (let k = 0; k < FEATURES && d < limit; k++)
        d += (features[a * FEATURES + k]! - features[b * FEATURES + k]!) ** 2;
      if (d >= limit) continue;
      let [from, to] = [a, b];
      let dx = blocks.x[to]! - blocks.x[from]!;
      let dy = blocks.y[to]! - blocks.y[from]!;
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
  const clusters: { dx: number; dy: number; members: number[] }[] = [];
  for (const [key, sources] of votes) {
    if (sources.length < MIN_VOTES) continue;
    if (slices.due()) await slices.pause();
    const dy = Math.round(key / 65536);
    for (const members of connectedClusters(sources, blocks)) {
      if (members.length >= MIN_VOTES) clusters.push({ dx: key - dy * 65536, dy, members });
    }
  }
  clusters.sort((p, q) => q.members.length - p.members.length);
  const bestVotes = clusters[0]?.members.length ?? 0;
  const copyMoves: CopyMove[] = [];
  let periodicMatches = 0;
  for (const { dx, dy, members } of clusters.slice(0, MAX_VERIFIED)) {
    if (slices.due()) await slices.pause();
    const source = blocksBounds(members, blocks);
    // Text-side blocks sit every CM_STEP pixels, so a shift may be voted for as its neighbour:
    // refine it.
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
    if (score < MIN_CORRELATION) continue;
    if (isPeriodic(input, source, target, score)) {
      periodicMatches++;
      continue;
    }
    if (!copyMoves.some((c) => overlaps(c.source, source) && overlaps(c.target, target))) {
      copyMoves.push({ source, target, score });
      if (copyMoves.length >= MAX_RESULTS) break;
    }
  }
  return { copyMoves, texturedBlocks: count, bestVotes, periodicMatches, judged: true };
}

/**
 * Block indices in the lexicographic order of their quantised features (ties in index order):
 * a stable least-significant-digit radix sort, one counting pass per feature, so that similar
 * blocks become neighbours without a comparison callback per pair. A photo can give a million
 * blocks and more (1.26 million on a 2167 x 1360 photo of a card), whose sort takes 0.7 s: it
 * pauses like the rest of the search. Its loops index the arrays: with a for-of over the typed
 * array the same sort took 1.1 to 1.4 s.
 */
async function sortedByKeys({ count, features }: Blocks, slices: TimeSlices): Promise<Uint32Array> {
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let next = new Uint32Array(count);
  const digits = new Uint16Array(count);
  const starts = new Uint32Array(2 * KEY_OFFSET + 1);
  for (let k = FEATURES - 1; k >= 0; k--) {
    starts.fill(0);
    for (let i = 0; i < count; i++) {
      if ((i & 65535) === 0 && slices.due()) await slices.pause();
      const digit = Math.round(features[i * FEATURES + k]! / SORT_STEP) + KEY_OFFSET;
      digits[i] = digit;
      starts[digit + 1]!++;
    }
    for (let d = 1; d < starts.length; d++) starts[d] = starts[d]! + starts[d - 1]!;
    for (let n = 0; n < count; n++) {
      if ((n & 65535) === 0 && slices.due()) await slices.pause();
      const i = order[n]!;
      next[starts[digits[i]!]!++] = i;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * The graph's textured blocks, plus, around each one outside text lines, the three blocks at
 * odd offsets (x+1, y), (x, y+1), (x+1, y+1), described here the same way. Text lines keep the
 * graph's sampling: text-to-text pairs are never judged, so one side of every judged pair
 * lies outside text, where every pixel offset is now sampled. Non-text texture is rare on
 * documents, so this adds little work.
 */
async function texturedBlocks(input: CopyMoveInput, nonText: number, slices: TimeSlices): Promise<Blocks> {
  const { features, cmCols, rgb, width } = input;
  const graphCount = input.blocks.length;
  const height = rgb.length / 3 / width;
  const capacity = graphCount + 3 * nonText;
  const blocks: Blocks = {
    count: 0,
    x: new Int32Array(capacity),
    y: new Int32Array(capacity),
    text: new Uint8Array(capacity),
    features: new Float64Array(capacity * FEATURES),
  };
  /** Appends a block and returns where its features start. */
  const append = (x: number, y: number, text: boolean): number => {
    const n = blocks.count++;
    blocks.x[n] = x;
    blocks.y[n] = y;
    blocks.text[n] = text ? 1 : 0;
    return n * FEATURES;
  };
  const own = new Float64Array(FEATURES);
  for (let j = 0; j < graphCount; j++) {
    if ((j & 255) === 0 && slices.due()) await slices.pause();
    const i = input.blocks[j]!;
    const x = (i % cmCols) * CM_STEP;
    const y = Math.floor(i / cmCols) * CM_STEP;
    const text = input.textMask[i] === 1;
    const at = append(x, y, text);
    for (let k = 0; k < FEATURES; k++) blocks.features[at + k] = features[k * graphCount + j]!;
    if (text) continue;
    for (const [ox, oy] of ODD_OFFSETS) {
      if (x + ox + CM_BLOCK > width || y + oy + CM_BLOCK > height) continue;
      blockFeatures(rgb, width, x + ox, y + oy, own);
      // The graph leaves flat blocks out; these are held to the same bar.
      let ac = 0;
      for (let k = 1; k < FEATURES; k++) ac += own[k]! ** 2;
      if (ac >= CM_MIN_AC_ENERGY) blocks.features.set(own, append(x + ox, y + oy, false));
    }
  }
  return blocks;
}

const ODD_OFFSETS = [
  [1, 0],
  [0, 1],
  [1, 1],
] as const;

const ROW_PASS = new Float64Array(CM_FREQS * CM_BLOCK);

/**
 * The graph's copy-move features (graph-spec.ts: channel u * CM_FREQS + v) of the block at (x0,
 * y0).
 */
function blockFeatures(rgb: Uint8Array, width: number, x0: number, y0: number, out: Float64Array): void {
  for (let y = 0; y < CM_BLOCK; y++) {
    for (let u = 0; u < CM_FREQS; u++) {
      let sum = 0;
      for (let x = 0; x < CM_BLOCK; x++) sum += BASIS[u * CM_BLOCK + x]! * lumaAt(rgb, ((y0 + y) * width + x0 + x) * 3);
      ROW_PASS[u * CM_BLOCK + y] = sum;
    }
  }
  for (let u = 0; u < CM_FREQS; u++) {
    for (let v = 0; v < CM_FREQS; v++) {
      let sum = 0;
      for (let y = 0; y < CM_BLOCK; y++) sum += BASIS[v * CM_BLOCK + y]! * ROW_PASS[u * CM_BLOCK + y]!;
      out[u * CM_FREQS + v] = sum;
    }
  }
}

const BASIS = Float64Array.from({ length: CM_FREQS * CM_BLOCK }, (_, i) =>
  cmBasis(Math.floor(i / CM_BLOCK), i % CM_BLOCK),
);

/**
 * Whether the match is a repeating print: the content continues one shift before the source or
 * after the target, or either area repeats along the shift with a shorter period (a row of
 * MRZ fillers, a guilloche), so that the shift is just some multiple of that period.
 */
function isPeriodic(input: CopyMoveInput, source: Box, target: Box, score: number): boolean {
  const dx = target[0] - source[0];
  const dy = target[1] - source[1];
  const length = Math.hypot(dx, dy);
  const moved = (b: Box, by: number): Box => [
    b[0] + Math.round((dx * by) / length),
    b[1] + Math.round((dy * by) / length),
    b[2],
    b[3],
  ];
  const pairs: [Box, Box][] = [
    [moved(source, -length), source],
    [target, moved(target, length)],
  ];
  for (let period = MIN_PERIOD; period <= Math.min(MAX_PERIOD, length / 2); period++) {
    pairs.push([source, moved(source, period)], [target, moved(target, period)]);
  }
  if (
    pairs.some(([a, b]) => inside(a, input) && inside(b, input) && correlation(input, a, b) >= PERIODIC_SHARE * score)
  )
    return true;
  if ([source, target].some((area) => repeatsAlongAxis(input, area, score))) return true;
  // A straight rule or edge (a table's border) is the same wherever it is cut along itself:
  // an area whose part barely changes when moved by a few pixels along one axis, within the
  // area, matches any other piece of the rule.
  return [source, target].some(([x, y, w, h]) =>
    STRAIGHT_SHIFTS.some(
      (d) =>
        (w > 2 * d && correlation(input, [x, y, w - d, h], [x + d, y, w - d, h]) >= STRAIGHT_CORRELATION) ||
        (h > 2 * d && correlation(input, [x, y, w, h - d], [x, y + d, w, h - d]) >= STRAIGHT_CORRELATION),
    ),
  );
}

/**
 * A run of one glyph repeats across the shift's direction too: MRZ fillers ("<<<<") past the
 * end of what OCR read as the line repeat at the glyph pitch along the row, and a filler on
 * one row matches a filler on the next at a diagonal shift that no period along the shift
 * explains. An area that repeats almost as well as the match, one and two periods along a row
 * or a column, is such a run. Two periods, and a share close to the match's: a cloned patch
 * of digits beside its source (the unit tests) repeats once at most, and less well.
 */
function repeatsAlongAxis(input: CopyMoveInput, [x, y, w, h]: Box, score: number): boolean {
  // A run's repeat is a glyph or two: larger areas are not runs, and testing them would cost
  // a hundred correlations of the whole area per match.
  if (w > 2 * MAX_PERIOD || h > 2 * MAX_PERIOD) return false;
  const area: Box = [x, y, w, h];
  const repeatsAt = (dx: number, dy: number) => {
    const moved: Box = [x + dx, y + dy, w, h];
    return inside(moved, input) && correlation(input, area, moved) >= RUN_SHARE * score;
  };
  for (let period = MIN_PERIOD; period <= MAX_PERIOD; period++) {
    for (const [dx, dy] of [
      [period, 0],
      [0, period],
    ] as const) {
      if (repeatsAt(dx, dy) && (repeatsAt(2 * dx, 2 * dy) || repeatsAt(-dx, -dy))) return true;
    }
  }
  return false;
}

/** Groups blocks into clusters of neighbours (at most CM_STEP pixels apart in each axis). */
function connectedClusters(members: number[], blocks: Blocks): number[][] {
  const at = (x: number, y: number) => y * 65536 + x;
  const pending = new Map(members.map((m) => [at(blocks.x[m]!, blocks.y[m]!), m]));
  const clusters: number[][] = [];
  for (const start of members) {
    if (!pending.delete(at(blocks.x[start]!, blocks.y[start]!))) continue;
    const cluster = [start];
    for (let i = 0; i < cluster.length; i++) {
      const x = blocks.x[cluster[i]!]!;
      const y = blocks.y[cluster[i]!]!;
      for (let oy = -CM_STEP; oy <= CM_STEP; oy++) {
        for (let ox = -CM_STEP; ox <= CM_STEP; ox++) {
          const key = at(x + ox, y + oy);
          const next = pending.get(key);
          if (next !== undefined && x + ox >= 0) {
            pending.delete(key);
            cluster.push(next);
          }
        }
      }
    }
    clusters.push(cluster);
  }
  return clusters;
}

/** Bounds of the blocks as a pixel box. */
function blocksBounds(members: number[], blocks: Blocks): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const m of members) {
    x0 = Math.min(x0, blocks.x[m]!);
    y0 = Math.min(y0, blocks.y[m]!);
    x1 = Math.max(x1, blocks.x[m]! + CM_BLOCK);
    y1 = Math.max(y1, blocks.y[m]! + CM_BLOCK);
  }
  return [x0, y0, x1 - x0, y1 - y0];
}

/** Marks the copy-move blocks that overlap any of the boxes. */
function textBlockMask(boxes: Box[], cmCols: number, cmRows: number): Uint8Array {
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

/**
 * Luma minus the mean of its 4 neighbours: the compression noise a clone carries along and a
 * genuinely repeated glyph does not share.
 */
function highPass(rgb: Uint8Array, width: number, p: number): number {
  const row = width * 3;
  if (p < row + 3 || p + row + 3 >= rgb.length) return 0;
  return lumaAt(rgb, p) - (lumaAt(rgb, p - 3) + lumaAt(rgb, p + 3) + lumaAt(rgb, p - row) + lumaAt(rgb, p + row)) / 4;
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
