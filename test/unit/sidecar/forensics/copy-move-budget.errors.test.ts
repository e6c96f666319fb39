// The clone search grows with the page's textured blocks; past MAX_COMPARED_BLOCKS it is not
// run, and the trace says so (reliability 0, a reason) instead of holding the sidecar's thread
// for tens of seconds. A page under the budget is searched as before.
import { describe, expect, test } from "bun:test";
import { Rng } from "../../../../scripts/corpus/rng.ts";
import { MAX_COMPARED_BLOCKS } from "../../../../sidecar/forensics/copy-move.ts";
import { analyzePixels } from "../../../../sidecar/forensics/index.ts";

/**
 * Random blobs a few pixels across everywhere (value noise on a 6-px grid): every block is
 * textured.
 */
function noise(width: number, height: number): Uint8Array {
  const rng = new Rng(7);
  const cell = 6;
  const gw = Math.ceil(width / cell) + 2;
  const grid = Array.from({ length: gw * (Math.ceil(height / cell) + 2) }, () => rng.int(40, 215));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [gx, gy] = [Math.floor(x / cell), Math.floor(y / cell)];
      const [fx, fy] = [(x % cell) / cell, (y % cell) / cell];
      const at = (i: number, j: number) => grid[(gy + j) * gw + gx + i]!;
      const v = (at(0, 0) * (1 - fx) + at(1, 0) * fx) * (1 - fy) + (at(0, 1) * (1 - fx) + at(1, 1) * fx) * fy;
      rgb.fill(Math.round(v), (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return rgb;
}

const copyMoveTrace = async (width: number, height: number) => {
  const result = await analyzePixels({ rgb: noise(width, height), width, height }, []);
  return result.traces.find((t) => t.name === "copy_move")!;
};

describe("the clone search's budget", () => {
  test("a fully textured page past the budget is not searched, and says so", async () => {
    // Blocks every 2 px: a 2200 x 2000 page holds about 1.1 million.
    const trace = await copyMoveTrace(2200, 2000);
    expect(Number(trace.facts.texturedBlocks)).toBeGreaterThan(MAX_COMPARED_BLOCKS);
    expect(trace.reliability).toBe(0);
    expect(String(trace.facts.reason)).toContain("too large for the clone search");
  }, 60_000);

  test("a page under the budget is searched", async () => {
    const trace = await copyMoveTrace(900, 700);
    expect(trace.reliability).toBeGreaterThan(0);
    expect(trace.facts.reason).toBeUndefined();
  }, 60_000);
});
