// The shared numeric helpers: thresholds were measured with these exact definitions, so an
// even count, an empty list and NaN are pinned here rather than left to each caller.
import { describe, expect, test } from "bun:test";
import { clamp, clamp01, median, rankQuantile, robustZ, sum, upperMedian } from "../../src/numeric.ts";

describe("numeric helpers", () => {
  test("median averages the two middle values; upperMedian takes the upper one; both NaN for none", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(upperMedian([3, 1, 2])).toBe(2);
    expect(upperMedian([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
    expect(upperMedian([])).toBeNaN();
    // Numeric order, not the string order a bare Array sort would give.
    expect(upperMedian([10, 9, 100])).toBe(10);
  });

  test("rankQuantile takes a measured value at floor(q·n), the largest at q = 1, NaN for none", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(rankQuantile(values, 0.5)).toBe(51);
    expect(rankQuantile(values, 0.99)).toBe(100);
    expect(rankQuantile(values, 1)).toBe(100);
    expect(rankQuantile(values, 0)).toBe(1);
    expect(rankQuantile([], 0.5)).toBeNaN();
  });

  test("clamp and clamp01 hold a value to their range and keep NaN", () => {
    expect(clamp(5, 0, 3)).toBe(3);
    expect(clamp(-1, 0, 3)).toBe(0);
    expect(clamp01(1.5)).toBe(1);
    expect(clamp01(-0.5)).toBe(0);
    expect(clamp01(0.25)).toBe(0.25);
    expect(clamp01(Number.NaN)).toBeNaN();
  });

  test("robustZ scores against the median and MAD, with a floor on the spread", () => {
    const z = robustZ([1, 1, 1, 1, 10], 0.5);
    expect(z.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(z[4]).toBe(18);
    expect(sum([1, 2, 3.5])).toBe(6.5);
  });
});
