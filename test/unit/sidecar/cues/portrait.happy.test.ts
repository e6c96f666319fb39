// The portrait checks compare the portrait's blocks with the rest of the card. Synthetic block
// maps of a captured card: text lines, a textured portrait area no text crosses, and every
// block's noise residual a fixed share of its gradient (one capture's blur over everything).
// A photo pasted in after the capture keeps more of its fine detail (a higher share) and its
// edge is a hard seam.
import { describe, expect, test } from "bun:test";
import { portraitExcess } from "../../../../sidecar/cues/index.ts";
import { measurePortrait } from "../../../../sidecar/cues/portrait.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { mulberry32 } from "../../../../scripts/mulberry32.ts";

const COLS = 100;
const ROWS = 64;
const PORTRAIT = { c: 6, r: 16, w: 26, h: 34 };
/** Text lines to the portrait's right, in pixels (blocks of 8). */
const LINES: Box[] = Array.from({ length: 8 }, (_, i) => [40 * 8, (8 + i * 6) * 8, 50 * 8, 3 * 8] as Box);

function maps(portraitShare: number, seamShare: number) {
  const random = mulberry32(7);
  const n = COLS * ROWS;
  const edge = new Float32Array(n);
  const noise = new Float32Array(n);
  const ela = new Float32Array(n);
  const gridH = new Float32Array(n * 8);
  const gridV = new Float32Array(n * 8);
  const inPortrait = (c: number, r: number) =>
    c >= PORTRAIT.c && c < PORTRAIT.c + PORTRAIT.w && r >= PORTRAIT.r && r < PORTRAIT.r + PORTRAIT.h;
  const onEdge = (c: number, r: number) =>
    inPortrait(c, r) &&
    (c === PORTRAIT.c || c === PORTRAIT.c + PORTRAIT.w - 1 || r === PORTRAIT.r || r === PORTRAIT.r + PORTRAIT.h - 1);
  const onText = (c: number, r: number) =>
    LINES.some(([x, y, w, h]) => c >= x / 8 && c < (x + w) / 8 && r >= y / 8 && r < (y + h) / 8);
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const i = r * COLS + c;
      const textured = inPortrait(c, r) || onText(c, r) || random() < 0.04;
      edge[i] = textured ? 12 + random() * 20 : 2 + random() * 3;
      const share = onEdge(c, r) ? seamShare : inPortrait(c, r) ? portraitShare : 0.3;
      noise[i] = edge[i]! * share * (0.9 + random() * 0.2);
      ela[i] = 1 + random() * 0.2;
      for (let p = 0; p < 8; p++) [gridH[i * 8 + p], gridV[i * 8 + p]] = [1 + random() * 0.1, 1 + random() * 0.1];
    }
  }
  return { cols: COLS, rows: ROWS, edge, noise, ela, gridH, gridV };
}

/** Intersection over union of two boxes. */
function overlap([ax, ay, aw, ah]: Box, [bx, by, bw, bh]: Box): number {
  const w = Math.max(0, Math.min(ax + aw, bx + bw) - Math.max(ax, bx));
  const h = Math.max(0, Math.min(ay + ah, by + bh) - Math.max(ay, by));
  return (w * h) / (aw * ah + bw * bh - w * h);
}

describe("portrait checks", () => {
  test("find the portrait and find it like the rest of a genuine card", () => {
    const m = measurePortrait(maps(0.3, 0.3), LINES, 8);
    expect(m.box).not.toBeNull();
    // Located where it is, give or take the speckle of texture around it.
    expect(overlap(m.box!, [PORTRAIT.c * 8, PORTRAIT.r * 8, PORTRAIT.w * 8, PORTRAIT.h * 8])).toBeGreaterThan(0.7);
    expect(Math.abs(m.sharpness)).toBeLessThan(0.2);
    expect(Math.abs(m.seam)).toBeLessThan(0.2);
    expect(portraitExcess(m).ratio).toBeLessThan(1);
  });

  test("a pasted photo, sharper than the capture, with a hard seam, passes the thresholds", () => {
    const m = measurePortrait(maps(0.75, 0.9), LINES, 8);
    expect(m.sharpness).toBeGreaterThan(1.2);
    expect(m.seam).toBeGreaterThan(1.2);
    expect(portraitExcess(m).ratio).toBeGreaterThanOrEqual(1);
  });

  test("a card without a portrait-shaped area is not judged", () => {
    const flat = maps(0.3, 0.3);
    flat.edge.fill(2);
    expect(measurePortrait(flat, LINES, 8).box).toBeNull();
  });
});
