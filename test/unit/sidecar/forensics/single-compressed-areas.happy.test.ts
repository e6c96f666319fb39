import { describe, expect, test } from "bun:test";
import { Rng } from "../../../../scripts/corpus/rng.ts";
import { DQ_AREA_MIN_TILES, analyzePixels } from "../../../../sidecar/forensics/index.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { type Page, decode, genuine, toJpeg } from "./page-fixture.ts";

const SEEDS = [1, 2, 3, 4, 5];
/**
 * Where the portrait goes: right of the statement's last lines and below its amounts, clear of
 * text.
 */
const PORTRAIT: Box = [944, 1424, 256, 288];

/**
 * A photo-like patch: smooth shading and texture in mid-tones, or with a white background clipped
 * at 255 when `bright`.
 */
function portrait(seed: number, [, , w, h]: Box, bright = false): Page {
  const rng = new Rng(seed * 7919 + 3);
  const waves = Array.from({ length: 6 }, () => ({
    fx: rng.float(0.01, 0.2),
    fy: rng.float(0.01, 0.2),
    phase: rng.float(0, 6.3),
    amp: rng.float(8, 22),
  }));
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 128;
      for (const wave of waves) v += wave.amp * Math.sin(wave.fx * x + wave.fy * y + wave.phase);
      v += rng.float(-6, 6);
      // A studio background: overexposed, its texture cut at 255, around a head and shoulders.
      const background = bright && Math.hypot((x - w / 2) / (w * 0.3), (y - h * 0.6) / (h * 0.45)) > 1;
      rgb.fill(
        background ? Math.min(255, Math.round(v + 120)) : Math.max(30, Math.min(225, Math.round(v))),
        (y * w + x) * 3,
        (y * w + x) * 3 + 3,
      );
    }
  }
  return { rgb, width: w, height: h };
}

function place(page: Page, patch: Page, [x, y, w, h]: Box): void {
  for (let row = 0; row < h; row++)
    page.rgb.set(patch.rgb.subarray(row * w * 3, (row + 1) * w * 3), ((y + row) * page.width + x) * 3);
}

/**
 * A scan-like statement saved at q70; the portrait pasted into its decoded pixels; the whole
 * re-saved at q90.
 */
async function pastedPortrait(seed: number) {
  const page = await genuine(seed, 70, [], "scanned");
  place(page.page, portrait(seed, PORTRAIT), PORTRAIT);
  const jpeg = await toJpeg(page.page, 90);
  return { jpeg, page: await decode(jpeg), lines: page.lines };
}

/**
 * The same page with a bright portrait printed on it before the first save, then re-saved
 * throughout.
 */
async function printedBrightPortrait(seed: number) {
  const page = await genuine(seed, 100, [], "scanned");
  place(page.page, portrait(seed, PORTRAIT, true), PORTRAIT);
  const jpeg = await toJpeg(await decode(await toJpeg(page.page, 70)), 90);
  return { jpeg, page: await decode(jpeg), lines: page.lines };
}

const overlaps = ([ax, ay, aw, ah]: Box, [bx, by, bw, bh]: Box) =>
  ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;

describe("areas compressed once on a page compressed twice", () => {
  test("the portrait pasted between a q70 and a q90 save is found where it was pasted, beyond the threshold, on 5 pages", async () => {
    for (const seed of SEEDS) {
      const forgery = await pastedPortrait(seed);
      expect(forgery.lines.some((line) => overlaps(line.box as Box, PORTRAIT))).toBe(false);
      const result = await analyzePixels({ ...forgery.page, jpeg: forgery.jpeg }, forgery.lines);
      const [largest] = result.singleCompressedAreas;
      expect(largest!.tiles).toBeGreaterThanOrEqual(DQ_AREA_MIN_TILES);
      expect(overlaps(largest!.box, PORTRAIT)).toBe(true);
      const trace = result.traces.find((t) => t.name === "double_quant")!;
      expect(trace.facts).toMatchObject({ largestAreaTiles: largest!.tiles });
      expect(trace.measures).toMatchObject({ doubleQuant: { areaThreshold: DQ_AREA_MIN_TILES } });
    }
  }, 30_000);

  test("pages saved at q70 and re-saved throughout at q90 have no area near the threshold", async () => {
    for (const seed of SEEDS) {
      const page = await genuine(seed, 70, [90], "scanned");
      const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
      expect(result.singleCompressedAreas[0]?.tiles ?? 0).toBeLessThan(DQ_AREA_MIN_TILES / 2);
    }
  }, 30_000);

  test("a genuine portrait printed before the first save, its overexposed background cut at 255, is not taken for a pasted one", async () => {
    for (const seed of SEEDS) {
      const page = await printedBrightPortrait(seed);
      const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
      expect(result.singleCompressedAreas[0]?.tiles ?? 0).toBeLessThan(DQ_AREA_MIN_TILES);
    }
  }, 30_000);

  test("a page compressed once has no first compression to contradict, so no area", async () => {
    const page = await genuine(1, 90, [], "scanned");
    const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
    expect(result.singleCompressedAreas).toEqual([]);
  }, 30_000);
});
