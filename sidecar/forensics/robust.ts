// Median/MAD statistics: a forged line or region is an outlier among its own document's
// lines, so the yardstick must not move when that outlier is in the sample.

export function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** Median absolute deviation scaled to estimate a normal standard deviation. */
export function mad(values: ArrayLike<number>, centre = median(values)): number {
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

export const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
