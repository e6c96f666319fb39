import { describe, expect, test } from "bun:test";
import sharp, { type JpegOptions } from "sharp";
import { readLumaCoefficients } from "../../../../sidecar/forensics/jpeg-coefficients.ts";

const W = 48;
const H = 32;
const rgb = new Uint8Array(W * H * 3).map((_, i) => (i * 37) % 251);
const encode = async (options: JpegOptions) =>
  new Uint8Array(
    await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
      .jpeg(options)
      .toBuffer(),
  );

describe("reading JPEG coefficients from bytes it cannot use", () => {
  test("reads none from a progressive JPEG", async () => {
    expect(readLumaCoefficients(await encode({ quality: 80, progressive: true }), W, H)).toBeNull();
  });

  test("reads none when the frame is not the size of the decoded pixels", async () => {
    expect(readLumaCoefficients(await encode({ quality: 80 }), W * 2, H)).toBeNull();
  });

  test("reads none from foreign bytes and survives every truncation and a corrupted scan", async () => {
    const jpeg = await encode({ quality: 80 });
    expect(readLumaCoefficients(new TextEncoder().encode("%PDF-1.7"), W, H)).toBeNull();
    for (let length = 0; length < jpeg.length; length += 7)
      expect(() => readLumaCoefficients(jpeg.subarray(0, length), W, H)).not.toThrow();
    const corrupted = jpeg.slice();
    for (let i = corrupted.length - 200; i < corrupted.length - 2; i += 3) corrupted[i] = 0x5a;
    expect(() => readLumaCoefficients(corrupted, W, H)).not.toThrow();
  });
});
