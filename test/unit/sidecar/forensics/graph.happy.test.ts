import { afterAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { createForensicsGraph } from "../../../../sidecar/forensics/graph.ts";
import { ijgLumaTable, readJpegTables } from "../../../../sidecar/forensics/jpeg-tables.ts";

const graph = await createForensicsGraph({ device: "cpu" });
afterAll(() => graph.close());

const W = 64;
const H = 48;
const rgb = new Uint8Array(W * H * 3);
for (let i = 0; i < W * H; i++) {
  const x = i % W;
  const y = Math.floor(i / W);
  rgb.fill((x * 13 + y * 7 + ((x * y) % 17)) % 256, i * 3, i * 3 + 3);
}

describe("the forensic ONNX graph", () => {
  test("computes the JPEG 8x8 DCT of each block of the luma, level-shifted by 128", async () => {
    const maps = await graph.run(rgb, rgb, W, H);
    const plane = maps.cols * maps.rows;
    const [bx, by] = [3, 2];
    const c = (k: number) => (k === 0 ? Math.SQRT1_2 : 1);
    for (const [u, v] of [[0, 0], [1, 0], [0, 3], [5, 6]] as const) {
      let expected = 0;
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const grey = rgb[((by * 8 + y) * W + bx * 8 + x) * 3]!;
          expected += (grey - 128) * Math.cos(((2 * x + 1) * u * Math.PI) / 16) * Math.cos(((2 * y + 1) * v * Math.PI) / 16);
        }
      }
      expected *= 0.25 * c(u) * c(v);
      expect(maps.dct[(v * 8 + u) * plane + by * maps.cols + bx]!).toBeCloseTo(expected, 1);
    }
  });

  test("reports no recompression residual when the page equals its re-encoding, and one block map per 8x8 block", async () => {
    const maps = await graph.run(rgb, rgb, W, H);
    expect(maps.cols).toBe(8);
    expect(maps.rows).toBe(6);
    expect(Math.max(...maps.ela)).toBe(0);
    expect(maps.gridH).toHaveLength(8 * 6 * 8);
    expect(maps.copyMove).toHaveLength(16 * maps.cmCols * maps.cmRows);
  });

  test("refuses sides that are not whole JPEG blocks", async () => {
    await expect(graph.run(rgb.subarray(0, 60 * 48 * 3), rgb.subarray(0, 60 * 48 * 3), 60, 48)).rejects.toThrow(RangeError);
  });
});

describe("the JPEG table reader", () => {
  test("reads back the luma table and quality sharp wrote", async () => {
    for (const quality of [30, 75, 90]) {
      const jpeg = new Uint8Array(await sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality }).toBuffer());
      const tables = readJpegTables(jpeg)!;
      expect(tables.quality).toBe(quality);
      expect(tables.luma).toEqual(ijgLumaTable(quality));
    }
  });
});
