// Small statistics shared by the benchmarks.

export function median(values: number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const sum = (values: number[]): number => values.reduce((total, v) => total + v, 0);
