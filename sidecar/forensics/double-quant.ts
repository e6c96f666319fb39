// Aligned double JPEG compression, after Lin, He, Tang & Tang 2009 ("Fast, automatic and
// fine-grained tampered JPEG image detection via DCT coefficient analysis"), simplified.
// A page saved at primary table Q1 and re-saved at Q2 (its current table) has, for each
// low-frequency AC coefficient, quantised values k = round(c / Q2) (read from the file:
// jpeg-coefficients.ts says why not from the pixels) only on the lattice
// round(m * Q1 / Q2): the histogram of k is periodic (period p = Q1 / gcd(Q1, Q2) bins) with
// empty bins. Text pasted from elsewhere and saved once fills every bin. For each coefficient
// the period is estimated from the page's own histogram; a block's coefficient then weighs
// for "single" in proportion to how rare its bin is for the page (Lin's likelihood of the
// bin under double quantisation against a uniform one within the period).
import { BlockSums, boxToBlocks } from "./block-sums.ts";
import { BLOCK } from "./graph-spec.ts";
import { KEPT_COEFFICIENTS, type LumaCoefficients } from "./jpeg-coefficients.ts";
import { ZIGZAG_TO_NATURAL } from "../../src/jpeg/markers.ts";
import type { JpegTables } from "./jpeg-tables.ts";
import { zOfPresent } from "./line-traces.ts";
import { clamp01 } from "../../src/numeric.ts";
import type { Box } from "./types.ts";

/**
 * Natural (v * 8 + u) indices of the AC coefficients in zigzag order 1..9 (those read from the
 * file): the low frequencies text blocks populate.
 */
const COEFFICIENTS = Array.from(ZIGZAG_TO_NATURAL.subarray(1, KEPT_COEFFICIENTS));
/**
 * Periods (in histogram bins) tried; Q1/Q2 ratios beyond this leave too few populated bins to fold.
 */
const MAX_PERIOD = 16;
/** Histogram bins |k| = 1..MAX_BIN at most; beyond it counts are too sparse to fold. */
const MAX_BIN = 160;
/** A coefficient whose current step is this coarse has too few bins to show a period. */
const MAX_STEP = 12;
/** Non-zero values a coefficient needs across the page before its histogram is read. */
const MIN_VALUES = 400;
/**
 * Folded contrast (mean |bin / local mean − 1| over phases) from which a coefficient counts as
 * periodic; measured 0.23-0.35 on single-compressed pages, 0.83-0.90 (best coefficient) on
 * double-compressed ones.
 */
const MIN_STRENGTH = 0.5;
/** Best contrast at which the page's double compression is taken as certain. */
const FULL_STRENGTH = 0.8;
/** Periodic coefficients needed for full confidence. */
const FULL_PERIODIC = 3;
/**
 * Bins rarer than this fraction of their local mean count as empty; bounds one coefficient's
 * weight.
 */
const RATIO_FLOOR = 0.05;
/** Informative coefficients a line (or tile) needs to be judged. */
const MIN_LINE_VALUES = 24;
/**
 * Smallest spread of line means: below it, a uniformly double-compressed page would turn noise into
 * scores.
 */
const MIN_SPREAD = 0.25;
/**
 * A line z above this stands out as compressed once on a double-compressed page. Measured on
 * generated scan-like statements (150 dpi), 10 variants each: saved at q70 and re-saved at q90
 * with one amount retyped from uncompressed pixels, the pasted line scores z 2.29-3.70 and
 * the other lines at most 1.06; pages saved at q70 then q90 throughout peak at 1.08; pages
 * saved once (q85, q90) show no period (folded contrast 0.23-0.35, below MIN_STRENGTH).
 */
export const DQ_LINE_Z_THRESHOLD = 1.7;

export interface DoubleQuantSummary {
  /** Coefficients whose histogram showed a period, with the period in bins. */
  periods: { coefficient: number; period: number }[];
  /** Highest folded contrast of any coefficient, periodic or not. */
  contrast: number;
  /**
   * Per line: robust z of its mean evidence for single compression, null when too little to judge.
   */
  lines: (number | null)[];
  /**
   * Per tile (row-major, tileCols across): robust z like the lines', null where too little to
   * judge.
   */
  tiles: (number | null)[];
  tileCols: number;
  usableLines: number;
}

/**
 * Page grid of `cols` x `rows` blocks (the analysed crop, a corner of the JPEG's own block grid).
 */
export interface BlockGrid {
  cols: number;
  rows: number;
}

export function doubleQuantSummary(
  coefficients: LumaCoefficients,
  tables: JpegTables,
  maps: BlockGrid,
  boxes: Box[],
  tile: number,
): DoubleQuantSummary {
  const plane = maps.cols * maps.rows;
  // Per block: summed log-likelihood ratio (compressed once against twice) over its informative
  // coefficients, and their count.
  const evidence = new Float32Array(plane);
  const counts = new Float32Array(plane);
  const periods: DoubleQuantSummary["periods"] = [];
  const bins = new Int32Array(plane);
  let contrast = 0;
  for (const [index, coefficient] of COEFFICIENTS.entries()) {
    if (tables.luma[coefficient]! > MAX_STEP) continue;
    const zigzag = index + 1;
    for (let b = 0; b < plane; b++) {
      const at = (Math.floor(b / maps.cols) * coefficients.cols + (b % maps.cols)) * KEPT_COEFFICIENTS + zigzag;
      bins[b] = Math.abs(coefficients.values[at]!);
    }
    const found = findPeriod(bins);
    if (!found) continue;
    contrast = Math.max(contrast, found.strength);
    if (found.strength < MIN_STRENGTH) continue;
    periods.push({ coefficient, period: found.period });
    for (let b = 0; b < plane; b++) {
      const k = bins[b]!;
      if (k === 0 || k > found.lastBin) continue;
      evidence[b] = evidence[b]! - Math.log(Math.max(RATIO_FLOOR, found.ratio[k % found.period]!));
      counts[b] = counts[b]! + 1;
    }
  }
  const sums = new BlockSums(maps.cols, maps.rows, evidence);
  const ns = new BlockSums(maps.cols, maps.rows, counts);
  // Without a periodic coefficient every count is 0, so every line and tile is null.
  const mean = (x0: number, y0: number, x1: number, y1: number): number | null => {
    const n = ns.sum(x0, y0, x1, y1);
    return n < MIN_LINE_VALUES ? null : sums.sum(x0, y0, x1, y1) / n;
  };
  const tileCols = Math.ceil(maps.cols / tile);
  const tileRows = Math.ceil(maps.rows / tile);
  const lineValues = boxes.map((box) => mean(...boxToBlocks(box, BLOCK)));
  const tileValues = Array.from({ length: tileCols * tileRows }, (_, i) => {
    const [tx, ty] = [i % tileCols, Math.floor(i / tileCols)];
    return mean(tx * tile, ty * tile, (tx + 1) * tile, (ty + 1) * tile);
  });
  return {
    periods,
    contrast,
    lines: zOfPresent(lineValues, MIN_SPREAD),
    tiles: zOfPresent(tileValues, MIN_SPREAD),
    tileCols,
    usableLines: lineValues.filter((v) => v !== null).length,
  };
}

/**
 * How sure the page is double-compressed: 0 without a period, 1 with a clear one on enough
 * coefficients.
 */
export const periodConfidence = ({ contrast, periods }: DoubleQuantSummary) =>
  clamp01((contrast - MIN_STRENGTH) / (FULL_STRENGTH - MIN_STRENGTH)) * clamp01(periods.length / FULL_PERIODIC);

interface Period {
  period: number;
  strength: number;
  /**
   * Per phase (k mod period): count over the local (one-period) mean; ~0 for bins double
   * quantisation leaves empty.
   */
  ratio: Float64Array;
  lastBin: number;
}

/**
 * The histogram of |k| (k ≠ 0) folded modulo each candidate period, every bin divided by the
 * mean of the period around it so the coefficients' decay does not read as a pattern; the
 * smallest period whose fold is nearly as contrasted as the best is the lattice's (its
 * multiples fold just as well).
 */
function findPeriod(bins: Int32Array): Period | null {
  const histogram = new Float64Array(MAX_BIN + 1);
  let total = 0;
  for (const k of bins) {
    if (k === 0 || k > MAX_BIN) continue;
    histogram[k] = histogram[k]! + 1;
    total++;
  }
  if (total < MIN_VALUES) return null;
  // Fold only as far as 99% of the values reach: the tail is a few scattered counts.
  let lastBin = 1;
  for (let seen = 0; lastBin <= MAX_BIN && seen < total * 0.99; lastBin++) seen += histogram[lastBin]!;
  lastBin = Math.min(MAX_BIN, lastBin);
  const folds: Period[] = [];
  for (let period = 2; period <= MAX_PERIOD && period * 3 <= lastBin; period++) {
    // Every bin counts once, whatever its count: the steep head of the histogram (paper noise
    // in bins 1-3) would otherwise read as a pattern on single-compressed pages.
    const ratio = new Float64Array(period);
    const bins = new Float64Array(period);
    for (let k = 1; k <= lastBin; k++) {
      const from = Math.max(1, k - Math.floor(period / 2));
      const to = Math.min(lastBin, from + period - 1);
      let local = 0;
      for (let j = from; j <= to; j++) local += histogram[j]!;
      if (local === 0) continue;
      ratio[k % period] = ratio[k % period]! + (histogram[k]! * (to - from + 1)) / local;
      bins[k % period] = bins[k % period]! + 1;
    }
    for (let phase = 0; phase < period; phase++) ratio[phase] = bins[phase]! > 0 ? ratio[phase]! / bins[phase]! : 1;
    const strength = ratio.reduce((s, r) => s + Math.abs(r - 1), 0) / period;
    folds.push({ period, strength, ratio, lastBin });
  }
  const best = Math.max(...folds.map((f) => f.strength));
  return folds.find((f) => f.strength >= 0.8 * best) ?? null;
}
