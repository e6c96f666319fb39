import { describe, expect, test } from "bun:test";
import {
  brierScore,
  confusionMatrix,
  flaggedRate,
  latencySummary,
  percentile,
  rocAuc,
  thresholdAtFpr,
} from "../../../scripts/eval/metrics.ts";

describe("metrics on too little data", () => {
  test("ROC AUC is undefined (null) without both genuine and forged documents", () => {
    expect(rocAuc([{ score: 0.9, positive: true }])).toBeNull();
    expect(rocAuc([{ score: 0.1, positive: false }])).toBeNull();
    expect(rocAuc([])).toBeNull();
  });

  test("rates, accuracy, Brier score and latency are null when nothing was measured", () => {
    expect(flaggedRate([], { value: 0.5, inclusive: true })).toEqual({ flagged: 0, total: 0, rate: null });
    expect(confusionMatrix([], ["passport"]).accuracy).toBeNull();
    expect(brierScore([])).toBeNull();
    expect(latencySummary([])).toEqual({ count: 0, medianMs: null, p95Ms: null, maxMs: null });
  });

  test("with no genuine scores the FPR rule flags everything", () => {
    expect(flaggedRate([0, 1], thresholdAtFpr([], 0.05)).rate).toBe(1);
  });
});

describe("metrics refuse meaningless arguments", () => {
  test("a target FPR outside [0, 1] is an error", () => {
    expect(() => thresholdAtFpr([0.1], 1.5)).toThrow(RangeError);
    expect(() => thresholdAtFpr([0.1], Number.NaN)).toThrow(RangeError);
  });

  test("a percentile outside [0, 1] is an error", () => {
    expect(() => percentile([1], 95)).toThrow(RangeError);
  });
});
