// Captured security documents repeat their own print: guilloche waves at a fixed period, rows
// of MRZ fillers at the glyph pitch. Those repeats correlate like clones; the clone search must
// leave them alone and still find a real clone. Cards are drawn here and captured as a phone
// would (sensor noise, blur, JPEG); one line box stands in for OCR that stopped before the fillers.
// Without the periodicity test the genuine card reports a clone of its own filler row.
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { Rng } from "../../../../scripts/corpus/rng.ts";
import { analyzePixels } from "../../../../sidecar/forensics/index.ts";
import type { Box, OcrLine } from "../../../../sidecar/forensics/types.ts";

const W = 800;
const H = 480;
/** Pitch of the filler glyphs and horizontal period of the guilloche waves, in pixels. */
const PITCH = 20;
const WAVE = 2 * PITCH;
const FILLER_ROW = 300;
/** Columns of the patterned band (a card's MRZ zone), right of the text. */
const BAND = [200, 440] as const;

interface Card {
  grey: Float32Array;
  lines: OcrLine[];
}

/**
 * A band of wavy background lines every 12 px, periodic along the band; a row of '<' fillers on it;
 * a "name" of blocks.
 */
function card(): Card {
  const grey = new Float32Array(W * H).fill(236);
  for (let y = FILLER_ROW - 40; y < FILLER_ROW + 60; y++) {
    for (let x = BAND[0]; x < BAND[1]; x++) {
      const offset = (y % 12) - 6 - 3 * Math.sin((2 * Math.PI * x) / WAVE);
      grey[y * W + x] = 228 - 30 * Math.exp(-(offset * offset) / 2);
    }
  }
  const ink = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < W && y < H) grey[y * W + x] = 30;
  };
  // '<' fillers: two 3-px strokes meeting at the left, 14 wide and 20 tall.
  for (let gx = BAND[0] + 10; gx + 24 < BAND[1]; gx += PITCH) {
    for (let t = 0; t <= 10; t++) {
      for (let s = 0; s < 3; s++) {
        ink(gx + Math.round(t * 1.4), FILLER_ROW + 10 - t + s);
        ink(gx + Math.round(t * 1.4), FILLER_ROW + 10 + t - s);
      }
    }
  }
  // The text the OCR read: irregular blocks left of the fillers.
  const rng = new Rng(7);
  for (let gx = 40; gx < 190; gx += 12) {
    const h = rng.int(12, 20);
    for (let y = FILLER_ROW + 20 - h; y < FILLER_ROW + 20; y++) for (let x = gx; x < gx + rng.int(3, 8); x++) ink(x, y);
  }
  const box: Box = [38, FILLER_ROW - 2, 154, 24];
  return {
    grey,
    lines: [
      {
        text: "NAME",
        confidence: 0.99,
        characters: [],
        polygon: [
          [38, 298],
          [192, 298],
          [192, 322],
          [38, 322],
        ],
        box,
      },
    ],
  };
}

/** Sensor noise, blur and a camera's JPEG, as a phone photo of the card. */
async function captured(grey: Float32Array, seed: number): Promise<{ rgb: Uint8Array; jpeg: Uint8Array }> {
  const rng = new Rng(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const v = Math.max(0, Math.min(255, Math.round(grey[i]! + rng.float(-4, 4))));
    rgb.fill(v, i * 3, i * 3 + 3);
  }
  const jpeg = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 88 })
    .toBuffer();
  const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), jpeg: new Uint8Array(jpeg) };
}

describe("copy-move on captured cards with a repeating security print", () => {
  test("reports no clone on genuine cards whose guilloche and filler row repeat at a fixed period", async () => {
    const { grey, lines } = card();
    let periodic = 0;
    for (const seed of [1, 2, 3]) {
      const { rgb, jpeg } = await captured(grey, seed);
      const result = await analyzePixels({ rgb, width: W, height: H, jpeg }, lines);
      expect(result.copyMoves).toEqual([]);
      const { measures } = result.traces.find((t) => t.name === "copy_move")!;
      periodic += measures && "copyMove" in measures ? (measures.copyMove.periodicMatches ?? 0) : 0;
    }
    // The repeats are found and correlate like clones: they are judged, then set aside.
    expect(periodic).toBeGreaterThan(0);
  }, 15_000);

  test("still finds a patch of the card pasted elsewhere on it, since the pasted texture does not repeat", async () => {
    const { grey, lines } = card();
    // A non-periodic stamp (a seal) drawn once, then cloned further right and down.
    const rng = new Rng(11);
    const [sx, sy, side] = [420, 80, 64];
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) grey[(sy + y) * W + sx + x] = 60 + rng.int(0, 150);
    const photo = await captured(grey, 4);
    // The forger copies the captured pixels (noise and blur included) and saves again.
    const [tx, ty] = [603, 171];
    for (let y = 0; y < side; y++)
      photo.rgb.copyWithin(((ty + y) * W + tx) * 3, ((sy + y) * W + sx) * 3, ((sy + y) * W + sx + side) * 3);
    const jpeg = new Uint8Array(
      await sharp(photo.rgb, { raw: { width: W, height: H, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const result = await analyzePixels({ rgb, width: W, height: H, jpeg }, lines);
    const hit = result.copyMoves.find(
      (c) =>
        Math.abs(c.target[0] - c.source[0] - (tx - sx)) <= 1 && Math.abs(c.target[1] - c.source[1] - (ty - sy)) <= 1,
    );
    expect(hit).toBeDefined();
  }, 15_000);
});

describe("copy-move on a captured page with a ruled table", () => {
  test("does not take two pieces of the same straight rule for a clone", async () => {
    const grey = new Float32Array(W * H).fill(236);
    // A table's frame: 2-px rules, top and bottom, and the two sides.
    for (const y of [100, 101, 300, 301]) for (let x = 60; x < 740; x++) grey[y * W + x] = 90;
    for (const x of [60, 61, 738, 739]) for (let y = 100; y < 302; y++) grey[y * W + x] = 90;
    const { rgb, jpeg } = await captured(grey, 5);
    const result = await analyzePixels({ rgb, width: W, height: H, jpeg }, []);
    expect(result.copyMoves).toEqual([]);
  }, 15_000);
});
