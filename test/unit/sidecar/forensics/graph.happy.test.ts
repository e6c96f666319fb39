import { afterAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { createForensicsGraph } from "../../../../sidecar/forensics/graph.ts";
import { readJpegTables } from "../../../../sidecar/forensics/jpeg-tables.ts";
import { ijgTable } from "../../../../src/jpeg/ijg-quality.ts";

const ijgLumaTable = (quality: number): number[] => Array.from(ijgTable(quality));

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

/**
 * Mean |luma − luma after a sharp (libjpeg) JPEG round trip| per 8x8 block: error-level analysis as
 * an encoder does it.
 */
async function sharpErrorLevel(quality: number): Promise<Float64Array> {
  const jpeg = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
  const decoded = await sharp(jpeg).raw().toBuffer();
  const luma = (data: Uint8Array, i: number) =>
    0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  const out = new Float64Array((W / 8) * (H / 8));
  for (let i = 0; i < W * H; i++) {
    const block = Math.floor(Math.floor(i / W) / 8) * (W / 8) + Math.floor((i % W) / 8);
    out[block] = out[block]! + Math.abs(luma(rgb, i) - luma(decoded, i)) / 64;
  }
  return out;
}

describe("the forensic ONNX graph", () => {
  for (const quality of [50, 75, 90]) {
    test(`re-encodes the luma with libjpeg's own arithmetic: its error level per block is sharp's round trip at quality ${quality}`, async () => {
      const maps = await graph.run(rgb, W, H, ijgLumaTable(quality));
      const expected = await sharpErrorLevel(quality);
      expect(Math.min(...expected)).toBeGreaterThan(1);
      expected.forEach((e, i) => {
        expect(maps.ela[i]!).toBeCloseTo(e, 4);
      });
    });
  }

  test("gives one block map per 8x8 block and copy-move features for the textured blocks only", async () => {
    const maps = await graph.run(rgb, W, H, ijgLumaTable(90));
    expect(maps.cols).toBe(8);
    expect(maps.rows).toBe(6);
    expect(maps.gridH).toHaveLength(8 * 6 * 8);
    expect(maps.gridV).toHaveLength(8 * 6 * 8);
    expect(maps.copyMoveBlocks.length).toBeGreaterThan(0);
    expect(maps.copyMoveFeatures).toHaveLength(16 * maps.copyMoveBlocks.length);
    expect(Math.max(...maps.copyMoveBlocks)).toBeLessThan(maps.cmCols * maps.cmRows);
  });

  test("finds no error level and no textured block on a blank white page", async () => {
    const maps = await graph.run(new Uint8Array(W * H * 3).fill(255), W, H, ijgLumaTable(90));
    expect(Math.max(...maps.ela)).toBe(0);
    expect(maps.copyMoveBlocks).toHaveLength(0);
  });

  test("refuses sides that are not whole JPEG blocks, and a quantisation table that is not 8x8", async () => {
    await expect(graph.run(rgb.subarray(0, 60 * 48 * 3), 60, 48, ijgLumaTable(90))).rejects.toThrow(RangeError);
    await expect(graph.run(rgb, W, H, ijgLumaTable(90).slice(0, 63))).rejects.toThrow(RangeError);
  });
});

describe("the JPEG table reader", () => {
  test("reads back the luma table and quality sharp wrote", async () => {
    for (const quality of [30, 75, 90]) {
      const jpeg = new Uint8Array(
        await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
          .jpeg({ quality })
          .toBuffer(),
      );
      const tables = readJpegTables(jpeg)!;
      expect(tables.quality).toBe(quality);
      expect(tables.luma).toEqual(ijgLumaTable(quality));
    }
  });
});
