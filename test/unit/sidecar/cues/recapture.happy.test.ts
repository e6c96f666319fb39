// The recapture cue finds a screen's or a print's periodic pattern in a page's spectra, and
// finds none in a photo of the document itself, whose texture and text are not periodic off
// the axes. Synthetic pages: smooth random shading with noise (a plain photo), the same with a
// fine oblique grid over it (a screen's pixels seen at a slant), and text-like horizontal bars.
import { describe, expect, test } from "bun:test";
import { recaptureScores } from "../../../../sidecar/cues/index.ts";
import { measureRecapture } from "../../../../sidecar/cues/recapture.ts";
import { RECAPTURE_THRESHOLDS } from "../../../../sidecar/cues/thresholds.ts";
import { mulberry32 } from "../../../../scripts/mulberry32.ts";

const W = 640;
const H = 480;

function page(pattern: (x: number, y: number) => number, seed = 1): Uint8Array {
  const random = mulberry32(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Shading that varies slowly, as light across a card, plus sensor noise.
      const base = 150 + 40 * Math.sin(x / 90) * Math.cos(y / 70) + (random() - 0.5) * 12 + pattern(x, y);
      for (let c = 0; c < 3; c++) rgb[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base + c * 5)));
    }
  }
  return rgb;
}

describe("recapture cue", () => {
  test("a plain photo has no peak beyond the threshold", () => {
    const m = measureRecapture(
      page(() => 0),
      W,
      H,
    );
    expect(m.patches).toBe(9);
    expect(m.lumaPeak).toBeLessThan(RECAPTURE_THRESHOLDS.lumaPeak);
    expect(Math.max(...Object.values(recaptureScores(m)))).toBeLessThan(1);
  });

  test("a slanted screen grid raises a peak at its frequency", () => {
    // A grid of period 3.4 pixels turned by 25 degrees: off both axes and off the JPEG grid.
    const [c, s] = [Math.cos(0.436), Math.sin(0.436)];
    const m = measureRecapture(
      page((x, y) => 14 * Math.cos((2 * Math.PI * (x * c + y * s)) / 3.4)),
      W,
      H,
    );
    expect(m.lumaPeak).toBeGreaterThan(RECAPTURE_THRESHOLDS.lumaPeak);
    // Every patch peaks at the grid's frequency.
    expect(m.lumaAgreement).toBe(9);
    expect(m.lumaPeakFrequency).toBeCloseTo(1 / 3.4, 1);
    expect(recaptureScores(m).luma).toBeGreaterThanOrEqual(1);
  });

  test("lines of text repeat along the axis and are not taken for a pattern", () => {
    const m = measureRecapture(
      page((_, y) => (y % 24 < 8 ? -80 : 0)),
      W,
      H,
    );
    expect(m.lumaPeak).toBeLessThan(RECAPTURE_THRESHOLDS.lumaPeak);
  });

  test("a page smaller than a patch is not judged", () => {
    const m = measureRecapture(new Uint8Array(100 * 100 * 3), 100, 100);
    expect(m.patches).toBe(0);
  });
});
