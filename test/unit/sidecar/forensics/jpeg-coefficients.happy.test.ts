import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { KEPT_COEFFICIENTS, readLumaCoefficients } from "../../../../sidecar/forensics/jpeg-coefficients.ts";
import { readJpegTables } from "../../../../sidecar/forensics/jpeg-tables.ts";

const W = 64;
const H = 48;
/**
 * Colours well inside 0..255, so decoding clips nothing and the pixels' DCT stays on the
 * quantisation lattice.
 */
const rgb = new Uint8Array(W * H * 3);
for (let i = 0; i < W * H; i++) {
  const x = i % W;
  const y = Math.floor(i / W);
  rgb.set([60 + ((x * 3 + y * 5) % 120), 70 + ((x * 7 + y) % 100), 80 + ((x * y) % 90)], i * 3);
}
const ZIGZAG_NATURAL = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24];

/**
 * JPEG's 8x8 DCT (natural index v * 8 + u) of the luma − 128 of the block at (bx, by) of decoded
 * RGB.
 */
function dct(data: Uint8Array, bx: number, by: number, natural: number): number {
  const [u, v] = [natural % 8, Math.floor(natural / 8)];
  const c = (k: number) => (k === 0 ? Math.SQRT1_2 : 1);
  let sum = 0;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const p = ((by * 8 + y) * W + bx * 8 + x) * 3;
      const luma = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
      sum += (luma - 128) * Math.cos(((2 * x + 1) * u * Math.PI) / 16) * Math.cos(((2 * y + 1) * v * Math.PI) / 16);
    }
  }
  return 0.25 * c(u) * c(v) * sum;
}

describe("the quantised luma coefficients read from a baseline JPEG", () => {
  for (const options of [{ quality: 90 }, { quality: 75, chromaSubsampling: "4:4:4" }] as const) {
    test(`times the quantisation step equal the DCT of the decoded luma within rounding (${JSON.stringify(options)})`, async () => {
      const jpeg = new Uint8Array(
        await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
          .jpeg(options)
          .toBuffer(),
      );
      const coefficients = readLumaCoefficients(jpeg, W, H)!;
      const { luma } = readJpegTables(jpeg)!;
      const data = new Uint8Array(await sharp(jpeg).raw().toBuffer());
      const plane = (W / 8) * (H / 8);
      expect([coefficients.cols, coefficients.rows]).toEqual([8, 6]);
      let worst = 0;
      for (let b = 0; b < plane; b++) {
        for (let z = 0; z < KEPT_COEFFICIENTS; z++) {
          const natural = ZIGZAG_NATURAL[z]!;
          const step = luma[natural]!;
          const pixels = dct(data, b % (W / 8), Math.floor(b / (W / 8)), natural);
          worst = Math.max(worst, Math.abs(coefficients.values[b * KEPT_COEFFICIENTS + z]! * step - pixels) / step);
        }
      }
      expect(worst).toBeLessThan(0.6);
    });
  }
});
