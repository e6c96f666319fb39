import { describe, expect, test } from "bun:test";
import { ELA_LINE_Z_THRESHOLD, analyzePixels } from "../../../../sidecar/forensics/index.ts";
import { retyped } from "./page-fixture.ts";

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

describe("error-level analysis of a statement whose amount was whited out and retyped", () => {
  test("puts the pasted line on top, beyond the threshold, in at least 7 of 10 variants (measured 7/10, top in 9/10)", async () => {
    let onTop = 0;
    let beyond = 0;
    for (const seed of SEEDS) {
      const forgery = await retyped(seed, 60, 85);
      const result = await analyzePixels({ ...forgery.page, jpeg: forgery.jpeg }, forgery.lines);
      const ela = result.lineScores.filter((s) => s.trace === "ela").sort((a, b) => b.score - a.score);
      if (ela[0]!.lineIndex === forgery.target) {
        onTop++;
        if (ela[0]!.score >= ELA_LINE_Z_THRESHOLD) beyond++;
      }
      expect(result.traces.find((t) => t.name === "ela")!.reliability).toBeGreaterThan(0.9);
    }
    console.log(
      `retyped amount (snippet q60, page q85): on top ${onTop}/10, beyond ${ELA_LINE_Z_THRESHOLD}: ${beyond}/10`,
    );
    expect(onTop).toBeGreaterThanOrEqual(8);
    expect(beyond).toBeGreaterThanOrEqual(7);
  }, 30_000);
});
