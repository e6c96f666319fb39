import { afterAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { createForensicsGraph } from "../../../../sidecar/forensics/graph.ts";
import { KEPT_COEFFICIENTS, readLumaCoefficients } from "../../../../sidecar/forensics/jpeg-coefficients.ts";
import { readJpegTables } from "../../../../sidecar/forensics/jpeg-tables.ts";

const graph = await createForensicsGraph({ device: "cpu" });
afterAll(() => graph.close());

const W = 64;
const H = 48;
/** Colours well inside 0..255, so decoding clips nothing and the pixels' DCT stays on the quantisation lattice. */
const rgb = new Uint8Array(W * H * 3);
for (let i = 0; i < W * H; i++) {
  const x = i % W;
  const y = Math.floor(i / W);
  rgb.set([60 + ((x * 3 + y * 5) % 120), 70 + ((x * 7 + y) % 100), 80 + ((x * y) % 90)], i * 3);
}
const ZIGZAG_NATURAL = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24];

describe("the quantised luma coefficients read from a baseline JPEG", () => {
  for (const options of [{ quality: 90 }, { quality: 75, chromaSubsampling: "4:4:4" }] as const) {
    test(`times the quantisation step equal the DCT of the decoded luma within rounding (${JSON.stringify(options)})`, async () => {
      const jpeg = new Uint8Array(await sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).jpeg(options).toBuffer());
      const coefficients = readLumaCoefficients(jpeg, W, H)!;
      const { luma } = readJpegTables(jpeg)!;
      const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      const maps = await graph.run(new Uint8Array(data), new Uint8Array(data), W, H);
      const plane = maps.cols * maps.rows;
      expect([coefficients.cols, coefficients.rows]).toEqual([8, 6]);
      let worst = 0;
      for (let b = 0; b < plane; b++) {
        for (let z = 0; z < KEPT_COEFFICIENTS; z++) {
          const natural = ZIGZAG_NATURAL[z]!;
          const step = luma[natural]!;
          worst = Math.max(worst, Math.abs(coefficients.values[b * KEPT_COEFFICIENTS + z]! * step - maps.dct[natural * plane + b]!) / step);
        }
      }
      expect(worst).toBeLessThan(0.6);
    });
  }
});
