// The ghost search finds the portrait again where a card prints it a second time, smaller and
// faded, and finds no repeat where the card shows another face there (a portrait swapped and
// its ghost left) or no ghost at all. Synthetic pages: paper with a little noise, a "face" drawn
// from a seeded smooth random field (so that any size of it is the same picture), and its ghost
// drawn at half size in a faded grey.
import { describe, expect, test } from "bun:test";
import { measureGhost } from "../../../../sidecar/cues/portrait-ghost.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { mulberry32 } from "../../../../scripts/mulberry32.ts";

const WIDTH = 800;
const HEIGHT = 500;
const PORTRAIT: Box = [40, 100, 200, 260];
const GHOST: Box = [520, 160, 100, 130];

/** A smooth random picture over [0, 1]²: a sum of Gaussian blobs, about -1..1. */
function face(seed: number): (u: number, v: number) => number {
  const random = mulberry32(seed);
  const blobs = Array.from({ length: 40 }, () => ({
    u: random(),
    v: random(),
    r: 0.04 + random() * 0.12,
    a: random() * 2 - 1,
  }));
  return (u, v) => blobs.reduce((sum, b) => sum + b.a * Math.exp(-((u - b.u) ** 2 + (v - b.v) ** 2) / (b.r * b.r)), 0);
}

/**
 * A page with the portrait `main` (a colour face) and, where given, a ghost: `ghost` faded to a
 * third of its contrast in grey.
 */
function page(main: (u: number, v: number) => number, ghost?: (u: number, v: number) => number): Uint8Array {
  const random = mulberry32(99);
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
  for (let i = 0; i < WIDTH * HEIGHT; i++) rgb.fill(228 + Math.round(random() * 6), i * 3, i * 3 + 3);
  const draw = ([x0, y0, w, h]: Box, picture: (u: number, v: number) => number, contrast: number, tint: number[]) => {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const grey = 150 + contrast * 60 * picture((x - x0) / w, (y - y0) / h);
        const i = (y * WIDTH + x) * 3;
        for (let c = 0; c < 3; c++) rgb[i + c] = Math.max(0, Math.min(255, Math.round(grey + tint[c]!)));
      }
    }
  };
  draw(PORTRAIT, main, 1, [20, 0, -15]);
  if (ghost) draw(GHOST, ghost, 0.35, [40, 40, 40]);
  return rgb;
}

describe("ghost image search", () => {
  test("finds the portrait repeated where the card prints its ghost", () => {
    const holder = face(1);
    const m = measureGhost(page(holder, holder), WIDTH, HEIGHT, PORTRAIT);
    expect(m.repeated).toBe(true);
    expect(m.correlation).toBeGreaterThan(0.85);
    expect(m.detail).toBeGreaterThan(0.7);
    const [x, y, w, h] = m.box!;
    // Where the ghost is, to within a cell of the grid (its size over 16) either way.
    expect(Math.abs(x + w / 2 - (GHOST[0] + GHOST[2] / 2))).toBeLessThan(12);
    expect(Math.abs(y + h / 2 - (GHOST[1] + GHOST[3] / 2))).toBeLessThan(12);
    expect(Math.abs(w - GHOST[2])).toBeLessThan(15);
  });

  test("finds no repeat where the portrait was swapped and the ghost left", () => {
    const m = measureGhost(page(face(2), face(1)), WIDTH, HEIGHT, PORTRAIT);
    expect(m.repeated).toBe(false);
    expect(m.detail).toBeLessThan(0.4);
  });

  test("finds no repeat on a card without a ghost", () => {
    expect(measureGhost(page(face(1)), WIDTH, HEIGHT, PORTRAIT).repeated).toBe(false);
  });

  test("does not search with a portrait too small to shrink into cells", () => {
    const m = measureGhost(page(face(1), face(1)), WIDTH, HEIGHT, [40, 100, 30, 40]);
    expect(m.box).toBeNull();
    expect(m.repeated).toBe(false);
  });
});
