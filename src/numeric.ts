// The numeric helpers the API, the sidecar and the scripts share. One definition each, so a
// median means the same thing wherever a threshold was measured with it.

/**
 * The median; the mean of the two middle values for an even count, NaN for none. Robust
 * statistics build on it: a forged line or region is an outlier among its own document's,
 * so the yardstick must not move when that outlier is in the sample.
 */
export function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** Median absolute deviation scaled to estimate a normal standard deviation. */
function mad(values: ArrayLike<number>, centre = median(values)): number {
  return 1.4826 * median(Array.from(values, (v) => Math.abs(v - centre)));
}

/**
 * Robust z-scores of `values` against their own median and MAD. `minSpread` stops a
 * near-constant sample (a clean, uniformly compressed page) from turning tiny
 * differences into large scores.
 */
export function robustZ(values: number[], minSpread: number): number[] {
  const centre = median(values);
  const spread = Math.max(mad(values, centre), minSpread);
  return values.map((v) => (v - centre) / spread);
}

/**
 * The value at index floor(q·n) of the sorted values (the largest for q = 1), NaN for none.
 * No interpolation, so a latency it reports is one that was measured; the evaluation's
 * percentile (scripts/eval/metrics.ts) interpolates as numpy does.
 */
export function rankQuantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

/**
 * The upper of the two middle values for an even count (the middle one for an odd count),
 * NaN for none: rankQuantile at one half. Where the answer must be a value that occurs (a
 * paper colour, a line's height, a peak) rather than median's mean of two.
 */
export const upperMedian = (values: ArrayLike<number>): number => rankQuantile(values, 0.5);

/** `v` held to [lo, hi]; NaN stays NaN. */
export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** `v` held to [0, 1]; NaN stays NaN. */
export const clamp01 = (v: number): number => clamp(v, 0, 1);

export const sum = (values: readonly number[]): number => values.reduce((total, v) => total + v, 0);
