import { describe, expect, test } from "bun:test";
import { DQ_LINE_Z_THRESHOLD, analyzePixels } from "../../../../sidecar/forensics/index.ts";
import { genuine } from "./page-fixture.ts";

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

const doubleQuant = async (page: Awaited<ReturnType<typeof genuine>>) => {
  const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
  return {
    trace: result.traces.find((t) => t.name === "double_quant")!,
    scores: result.lineScores.filter((s) => s.trace === "double_quant"),
    copyMoves: result.copyMoves,
  };
};

describe("double quantisation of genuine scan-like statements", () => {
  test("finds no period, so no reliability and no line score, and no clone, on 10 pages saved once at q90", async () => {
    for (const seed of SEEDS) {
      const { trace, scores, copyMoves } = await doubleQuant(await genuine(seed, 90, [], "scanned"));
      expect(copyMoves).toEqual([]);
      expect(trace.reliability).toBe(0);
      expect(trace.facts.periodicCoefficients).toBe(0);
      expect(scores).toEqual([]);
    }
  }, 20_000);

  test("finds the period but no line beyond the threshold, and no clone, on 10 pages saved at q70 and re-saved throughout at q90 (measured highest z 1.08)", async () => {
    let highest = Number.NEGATIVE_INFINITY;
    for (const seed of SEEDS) {
      const { trace, scores, copyMoves } = await doubleQuant(await genuine(seed, 70, [90], "scanned"));
      expect(copyMoves).toEqual([]);
      expect(trace.reliability).toBeGreaterThan(0.9);
      for (const s of scores) highest = Math.max(highest, s.score);
    }
    console.log(`uniformly double-compressed: highest line z ${highest.toFixed(2)}`);
    expect(highest).toBeLessThan(DQ_LINE_Z_THRESHOLD);
  }, 20_000);

  test("says nothing on a pure white digital render, whose text blocks are clipped at 255 after the first decode", async () => {
    const { trace } = await doubleQuant(await genuine(1, 70, [90]));
    expect(trace.reliability).toBe(0);
  });

  test("says nothing without JPEG bytes", async () => {
    const page = await genuine(2, 70, [90], "scanned");
    const result = await analyzePixels(page.page, page.lines);
    const trace = result.traces.find((t) => t.name === "double_quant")!;
    expect(trace.reliability).toBe(0);
    expect(trace.facts.reason).toBe("not a JPEG");
  });
});
