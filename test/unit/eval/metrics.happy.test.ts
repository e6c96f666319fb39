import { describe, expect, test } from "bun:test";
import {
  accuracyByLevel,
  brierScore,
  confusionMatrix,
  flaggedRate,
  latencySummary,
  midranks,
  percentile,
  reliabilityTable,
  rocAuc,
  rocCurve,
  thresholdAtFpr,
  type RocPoint,
  type Scored,
} from "../../../scripts/eval/metrics.ts";

/** Area under the curve by trapezoids: an independent check of the rank-based AUC. */
function areaUnder(points: readonly RocPoint[]): number {
  let area = 0;
  for (let i = 1; i < points.length; i++)
    area += ((points[i]!.fpr - points[i - 1]!.fpr) * (points[i - 1]!.tpr + points[i]!.tpr)) / 2;
  return area;
}

const scored = (positives: number[], negatives: number[]): Scored[] => [
  ...positives.map((score) => ({ score, positive: true })),
  ...negatives.map((score) => ({ score, positive: false })),
];

/** Fawcett (2006), "An introduction to ROC analysis", figure 3: 20 scored instances, AUC 0.68. */
const FAWCETT = "P.9 P.8 N.7 P.6 P.55 P.54 N.53 N.52 P.51 N.505 P.4 N.39 P.38 N.37 N.36 N.35 P.34 N.33 P.30 N.1"
  .split(" ")
  .map((item) => ({ positive: item.startsWith("P"), score: Number(`0${item.slice(1)}`) }));

/**
 * Hanley & McNeil (1982), table 1: 5-point ratings of 58 normal and 51 abnormal images, AUC 0.893.
 */
const HANLEY_MCNEIL = (() => {
  const normal = [33, 6, 6, 11, 2];
  const abnormal = [3, 2, 2, 11, 33];
  const rated = (counts: number[], positive: boolean) =>
    counts.flatMap((count, i) => Array.from({ length: count }, () => ({ score: i + 1, positive })));
  return [...rated(normal, false), ...rated(abnormal, true)];
})();

describe("ROC AUC", () => {
  test("is 1 when every forged document scores above every genuine one", () => {
    expect(rocAuc(scored([0.7, 0.8, 0.9], [0.1, 0.2, 0.3]))).toBe(1);
  });

  test("is 0 when the scores are reversed", () => {
    expect(rocAuc(scored([0.1, 0.2], [0.8, 0.9]))).toBe(0);
  });

  test("is 0.5 when every score is the same, since a tie counts one half", () => {
    expect(rocAuc(scored([0.5, 0.5, 0.5], [0.5, 0.5]))).toBe(0.5);
  });

  test("matches Fawcett's worked example", () => {
    expect(rocAuc(FAWCETT)).toBeCloseTo(0.68, 12);
  });

  test("matches Hanley and McNeil's rating data, where most scores are tied", () => {
    expect(rocAuc(HANLEY_MCNEIL)).toBeCloseTo(0.8932, 4);
  });

  test("equals the area under the ROC curve, ties included, whatever the input order", () => {
    const shuffled = [...HANLEY_MCNEIL].reverse();
    expect(areaUnder(rocCurve(shuffled))).toBeCloseTo(rocAuc(HANLEY_MCNEIL)!, 12);
    expect(areaUnder(rocCurve(FAWCETT))).toBeCloseTo(0.68, 12);
  });

  test("equals the share of (forged, genuine) pairs ordered right, counting ties as one half", () => {
    const positives = HANLEY_MCNEIL.filter((item) => item.positive);
    const negatives = HANLEY_MCNEIL.filter((item) => !item.positive);
    let wins = 0;
    for (const p of positives) for (const n of negatives) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
    expect(rocAuc(HANLEY_MCNEIL)).toBeCloseTo(wins / (positives.length * negatives.length), 12);
  });
});

describe("ROC curve", () => {
  test("runs from (0, 0) to (1, 1) with one point per distinct score", () => {
    const points = rocCurve(scored([0.9, 0.6], [0.6, 0.2]));
    expect(points).toEqual([
      { threshold: Number.POSITIVE_INFINITY, fpr: 0, tpr: 0 },
      { threshold: 0.9, fpr: 0, tpr: 0.5 },
      { threshold: 0.6, fpr: 0.5, tpr: 1 },
      { threshold: 0.2, fpr: 1, tpr: 1 },
    ]);
  });
});

describe("midranks", () => {
  test("give tied values the mean of the ranks they share", () => {
    expect(midranks([10, 20, 20, 30, 20])).toEqual([1, 3, 3, 5, 3]);
  });
});

describe("threshold at a target false-positive rate", () => {
  const genuine = [
    0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19,
    0.9,
  ];

  test("lets exactly the allowed share of genuine documents through", () => {
    const threshold = thresholdAtFpr(genuine, 0.05);
    expect(threshold).toEqual({ value: 0.19, inclusive: false });
    expect(flaggedRate(genuine, threshold)).toEqual({ flagged: 1, total: 20, rate: 0.05 });
  });

  test("flags no genuine document when the target allows less than one", () => {
    const threshold = thresholdAtFpr(genuine, 0.01);
    expect(threshold.value).toBe(0.9);
    expect(flaggedRate(genuine, threshold).flagged).toBe(0);
  });

  test("never exceeds the target when genuine scores tie at the boundary", () => {
    const tied = [0.1, 0.2, 0.2, 0.2, 0.3];
    const threshold = thresholdAtFpr(tied, 0.4);
    expect(flaggedRate(tied, threshold).rate).toBe(0.2);
  });

  test("gives the detection rate on forged scores at that rule", () => {
    const threshold = thresholdAtFpr(genuine, 0.05);
    expect(flaggedRate([0.95, 0.5, 0.19, 0.1], threshold)).toEqual({ flagged: 2, total: 4, rate: 0.5 });
  });

  test("flags everything when the target FPR is 1", () => {
    expect(flaggedRate([0, 0.5], thresholdAtFpr(genuine, 1)).rate).toBe(1);
  });

  test("an inclusive rule flags a score equal to its value", () => {
    expect(flaggedRate([0.5, 0.49], { value: 0.5, inclusive: true }).flagged).toBe(1);
  });
});

describe("confusion matrix", () => {
  test("counts actual against predicted and gives accuracy and recall", () => {
    const matrix = confusionMatrix(
      [
        { actual: "passport", predicted: "passport" },
        { actual: "passport", predicted: "id" },
        { actual: "id", predicted: "id" },
        { actual: "financial", predicted: "unknown" },
      ],
      ["passport", "id", "financial"],
    );
    expect(matrix.classes).toEqual(["passport", "id", "financial", "unknown"]);
    expect(matrix.counts.passport).toEqual({ passport: 1, id: 1, financial: 0, unknown: 0 });
    expect(matrix.counts.financial.unknown).toBe(1);
    expect(matrix.accuracy).toBe(0.5);
    expect(matrix.recall).toEqual({ passport: 0.5, id: 1, financial: 0, unknown: null });
  });
});

describe("calibration", () => {
  test("the Brier score is the mean squared error of the probability", () => {
    const outcomes = [
      { p: 0.9, forged: true },
      { p: 0.2, forged: false },
      { p: 0.6, forged: false },
      { p: 1, forged: true },
    ];
    expect(brierScore(outcomes)).toBeCloseTo((0.01 + 0.04 + 0.36 + 0) / 4, 12);
  });

  test("a perfect forecaster scores 0 and the worst scores 1", () => {
    expect(
      brierScore([
        { p: 1, forged: true },
        { p: 0, forged: false },
      ]),
    ).toBe(0);
    expect(
      brierScore([
        { p: 0, forged: true },
        { p: 1, forged: false },
      ]),
    ).toBe(1);
  });

  test("the reliability table has ten bins of mean prediction against observed share", () => {
    const bins = reliabilityTable([
      { p: 0.05, forged: false },
      { p: 0.15, forged: false },
      { p: 0.95, forged: true },
      { p: 0.85, forged: true },
      { p: 0.85, forged: false },
      { p: 1, forged: true },
    ]);
    expect(bins).toHaveLength(10);
    expect(bins[0]).toEqual({ lower: 0, upper: 0.1, count: 1, meanPredicted: 0.05, observed: 0 });
    expect(bins[8]!.count).toBe(2);
    expect(bins[8]!.observed).toBe(0.5);
    expect(bins[9]!.count).toBe(2);
    expect(bins[9]!.meanPredicted).toBeCloseTo(0.975, 12);
    expect(bins[9]!.observed).toBe(1);
    expect(bins[5]).toEqual({ lower: 0.5, upper: 0.6, count: 0, meanPredicted: null, observed: null });
  });
});

describe("confidence levels", () => {
  test("each level's accuracy is how often score ≥ 0.5 agrees with the label", () => {
    const rows = [
      { level: "high" as const, score: 0.9, forged: true },
      { level: "high" as const, score: 0.1, forged: false },
      { level: "medium" as const, score: 0.6, forged: false },
      { level: "medium" as const, score: 0.5, forged: true },
      { level: "low" as const, score: 0.4, forged: true },
    ];
    expect(accuracyByLevel(rows, ["low", "medium", "high"], { value: 0.5, inclusive: true })).toEqual([
      { level: "low", count: 1, correct: 0, accuracy: 0 },
      { level: "medium", count: 2, correct: 1, accuracy: 0.5 },
      { level: "high", count: 2, correct: 2, accuracy: 1 },
    ]);
  });
});

describe("latency", () => {
  test("median and p95 interpolate between ranks", () => {
    const values = Array.from({ length: 101 }, (_, i) => i * 10);
    expect(latencySummary(values)).toEqual({ count: 101, medianMs: 500, p95Ms: 950, maxMs: 1000 });
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20], 0.95)).toBeCloseTo(19.5, 12);
  });
});
