import { describe, expect, test } from "bun:test";
import { ELA_LINE_Z_THRESHOLD, analyzePixels } from "../../../../sidecar/forensics/index.ts";
import { genuine } from "./page-fixture.ts";

const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

describe("pixel forensics of genuine statements", () => {
  for (const [name, resaves] of [
    ["saved once at q85", []],
    ["re-saved uniformly at q90", [90]],
  ] as const) {
    test(`finds no standing-out line and no clone on 10 pages ${name}`, async () => {
      let maxZ = Number.NEGATIVE_INFINITY;
      for (const seed of SEEDS) {
        const page = await genuine(seed, 85, [...resaves]);
        const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
        for (const s of result.lineScores) if (s.trace === "ela") maxZ = Math.max(maxZ, s.score);
        expect(result.copyMoves).toEqual([]);
        expect(result.regions.filter((r) => r.trace === "copy_move")).toEqual([]);
      }
      console.log(`genuine ${name}: highest ELA line z ${maxZ.toFixed(2)}`);
      expect(maxZ).toBeLessThan(ELA_LINE_Z_THRESHOLD);
    }, 20_000);
  }
});
