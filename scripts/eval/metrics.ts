// Detection-quality measures as pure functions over scores and labels. "Positive" is a
// forged document; a higher forgeryScore means more likely forged. These few formulas are
// written here rather than taken from a library because no maintained JavaScript package
// computes tie-aware ROC, FPR-targeted thresholds and reliability tables together, and each
// is a handful of lines checked against textbook cases in test/unit/eval.
import { clamp01 } from "../../src/numeric.ts";

export interface Scored {
  score: number;
  positive: boolean;
}

export interface RocPoint {
  /**
   * Documents with score ≥ threshold are flagged; +Infinity (null in JSON) for the (0, 0) corner.
   */
  threshold: number;
  fpr: number;
  tpr: number;
}

/**
 * A decision rule: flag when score > value, or score ≥ value when inclusive. A value of -Infinity
 * (null in JSON) flags everything.
 */
export interface Threshold {
  value: number;
  inclusive: boolean;
}

export interface Rate {
  flagged: number;
  total: number;
  /** flagged / total, null when there is nothing to count. */
  rate: number | null;
}

const countWhere = <T>(items: readonly T[], test: (item: T) => boolean): number =>
  items.reduce((n, item) => (test(item) ? n + 1 : n), 0);

/**
 * ROC points from the strictest rule to the most lenient. Equal scores move together, so a
 * tie between a genuine and a forged document is a diagonal segment, never a staircase
 * that would depend on input order.
 */
export function rocCurve(items: readonly Scored[]): RocPoint[] {
  const positives = countWhere(items, (item) => item.positive);
  const negatives = items.length - positives;
  const sorted = [...items].sort((a, b) => b.score - a.score);
  const points: RocPoint[] = [{ threshold: Number.POSITIVE_INFINITY, fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; ) {
    const score = sorted[i]!.score;
    for (; i < sorted.length && sorted[i]!.score === score; i++) {
      if (sorted[i]!.positive) tp++;
      else fp++;
    }
    points.push({ threshold: score, fpr: negatives ? fp / negatives : 0, tpr: positives ? tp / positives : 0 });
  }
  return points;
}

/** 1-based ranks of values in ascending order; tied values share the mean of their ranks. */
export function midranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.index] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * ROC AUC as the Mann–Whitney U statistic over midranks: the probability that a random
 * forged document scores above a random genuine one, ties counting one half. Null when
 * either class is empty.
 */
export function rocAuc(items: readonly Scored[]): number | null {
  const positives = countWhere(items, (item) => item.positive);
  const negatives = items.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const ranks = midranks(items.map((item) => item.score));
  const positiveRankSum = items.reduce((sum, item, i) => (item.positive ? sum + ranks[i]! : sum), 0);
  const u = positiveRankSum - (positives * (positives + 1)) / 2;
  return u / (positives * negatives);
}

const isFlagged = (score: number, threshold: Threshold): boolean =>
  threshold.inclusive ? score >= threshold.value : score > threshold.value;

export function flaggedRate(scores: readonly number[], threshold: Threshold): Rate {
  const flagged = countWhere(scores, (score) => isFlagged(score, threshold));
  return { flagged, total: scores.length, rate: scores.length ? flagged / scores.length : null };
}

/**
 * The most lenient rule whose false-positive rate on the genuine scores does not exceed
 * targetFpr: flag what scores above the (k+1)-th highest genuine score, k = ⌊target·n⌋.
 * Ties at that score stay unflagged, so the achieved rate can be lower than the target,
 * never higher. With no genuine scores nothing bounds the rule: everything is flagged.
 */
export function thresholdAtFpr(genuineScores: readonly number[], targetFpr: number): Threshold {
  if (!(targetFpr >= 0 && targetFpr <= 1)) throw new RangeError(`target FPR must be within [0, 1], got ${targetFpr}`);
  const descending = [...genuineScores].sort((a, b) => b - a);
  const allowed = Math.floor(targetFpr * descending.length + 1e-9);
  const boundary = descending[allowed];
  return boundary === undefined
    ? { value: Number.NEGATIVE_INFINITY, inclusive: false }
    : { value: boundary, inclusive: false };
}

export function groupBy<T, K extends string>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export interface ConfusionMatrix<C extends string> {
  /** Row labels (actual) and column labels (predicted), in the order given. */
  classes: C[];
  /** counts[actual][predicted]. */
  counts: Record<C, Record<C, number>>;
  accuracy: number | null;
  /** Per actual class: the share predicted right (recall). */
  recall: Record<C, number | null>;
}

export function confusionMatrix<C extends string>(
  pairs: readonly { actual: C; predicted: C }[],
  classes: readonly C[],
): ConfusionMatrix<C> {
  const all = [...classes];
  for (const { actual, predicted } of pairs) {
    if (!all.includes(actual)) all.push(actual);
    if (!all.includes(predicted)) all.push(predicted);
  }
  const counts = Object.fromEntries(all.map((a) => [a, Object.fromEntries(all.map((p) => [p, 0]))])) as Record<
    C,
    Record<C, number>
  >;
  for (const { actual, predicted } of pairs) counts[actual][predicted]++;
  const correct = countWhere(pairs, (pair) => pair.actual === pair.predicted);
  const recall = Object.fromEntries(
    all.map((a) => {
      const row = Object.values<number>(counts[a]).reduce((s, n) => s + n, 0);
      return [a, row ? counts[a][a] / row : null];
    }),
  ) as Record<C, number | null>;
  return { classes: all, counts, accuracy: pairs.length ? correct / pairs.length : null, recall };
}

export interface Outcome {
  /** Predicted probability of forgery (the forgeryScore). */
  p: number;
  forged: boolean;
}

export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  /** Mean predicted probability in the bin, null when empty. */
  meanPredicted: number | null;
  /** Share of forged documents in the bin, null when empty. */
  observed: number | null;
}

/** Equal-width bins over [0, 1]; the last bin is closed so a score of exactly 1 counts. */
export function reliabilityTable(outcomes: readonly Outcome[], binCount = 10): ReliabilityBin[] {
  const sums = Array.from({ length: binCount }, () => ({ count: 0, predicted: 0, forged: 0 }));
  for (const { p, forged } of outcomes) {
    const bin = sums[Math.min(binCount - 1, Math.floor(clamp01(p) * binCount))]!;
    bin.count++;
    bin.predicted += clamp01(p);
    if (forged) bin.forged++;
  }
  return sums.map((bin, i) => ({
    lower: i / binCount,
    upper: (i + 1) / binCount,
    count: bin.count,
    meanPredicted: bin.count ? bin.predicted / bin.count : null,
    observed: bin.count ? bin.forged / bin.count : null,
  }));
}

/** Mean squared difference between the predicted probability and the outcome (0 or 1). */
export function brierScore(outcomes: readonly Outcome[]): number | null {
  if (outcomes.length === 0) return null;
  return outcomes.reduce((sum, { p, forged }) => sum + (clamp01(p) - (forged ? 1 : 0)) ** 2, 0) / outcomes.length;
}

export interface LevelAccuracy<L extends string> {
  level: L;
  count: number;
  correct: number;
  accuracy: number | null;
}

/**
 * For each confidence level, how often the verdict it qualifies is right, the verdict
 * being "forged" when the score reaches the operating threshold.
 */
export function accuracyByLevel<L extends string>(
  rows: readonly { level: L; score: number; forged: boolean }[],
  levels: readonly L[],
  operating: Threshold,
): LevelAccuracy<L>[] {
  return levels.map((level) => {
    const at = rows.filter((row) => row.level === level);
    const correct = countWhere(at, (row) => isFlagged(row.score, operating) === row.forged);
    return { level, count: at.length, correct, accuracy: at.length ? correct / at.length : null };
  });
}

/** Percentile by linear interpolation between closest ranks (numpy's default). */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile must be within [0, 1], got ${q}`);
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export interface LatencySummary {
  count: number;
  medianMs: number | null;
  p95Ms: number | null;
  maxMs: number | null;
}

export function latencySummary(latenciesMs: readonly number[]): LatencySummary {
  return {
    count: latenciesMs.length,
    medianMs: percentile(latenciesMs, 0.5),
    p95Ms: percentile(latenciesMs, 0.95),
    maxMs: latenciesMs.length ? Math.max(...latenciesMs) : null,
  };
}
