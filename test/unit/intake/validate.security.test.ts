import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { isAppError } from "../../../src/errors.ts";
import { MAX_IMAGE_PIXELS } from "../../../src/intake/validate-image.ts";
import { validateDocument } from "../../../src/intake/validate.ts";
import { concatBytes, makeJpeg, makePdf } from "./fixtures.ts";

async function codeOf(bytes: Uint8Array): Promise<string> {
  try {
    await validateDocument(bytes);
    return "accepted";
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe("validateDocument under hostile input", () => {
  test("refuses a small PNG that would decode to more than the pixel budget, before decoding it", async () => {
    // 10000 x 6000 of one colour compresses to a few hundred kB but is 60 MP.
    const bomb = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(1_000_000);
    expect(10_000 * 6_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    const started = performance.now();
    expect(await codeOf(bomb)).toBe("FILE_TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("refuses a tiny JPEG whose header claims 16000 x 16000 pixels, without decoding it", async () => {
    const jpeg = Buffer.from(await makeJpeg(64, 64));
    const startOfFrame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(16_000, startOfFrame + 5);
    jpeg.writeUInt16BE(16_000, startOfFrame + 7);
    const started = performance.now();
    expect(await codeOf(jpeg)).toBe("FILE_TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(200);
  });

  test("judges a JPEG/PDF polyglot by its leading JPEG magic and decodes it as such", async () => {
    const polyglot = concatBytes(await makeJpeg(), makePdf());
    expect(await codeOf(polyglot)).toBe("accepted");
    expect((await validateDocument(polyglot)).format).toBe("jpeg");
  });

  test("refuses bytes that start like a PNG but carry a PDF", async () => {
    const disguised = concatBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), makePdf());
    expect(await codeOf(disguised)).toBe("UNSUPPORTED_FORMAT");
  });
});

describe("metadata a JPEG header does not declare", () => {
  test("more than 4 MiB of APPn segments is refused before decoding", async () => {
    const { countJpegStructure } = await import("../../../src/intake/jpeg-structure.ts");
    const segment = [0xff, 0xe2, 0xff, 0xff, ...new Array(0xfffd).fill(0)];
    const bytes = new Uint8Array([0xff, 0xd8, ...Array.from({ length: 65 }, () => segment).flat(), 0xff, 0xd9]);
    expect(() => countJpegStructure(bytes)).toThrow("metadata");
    const fewer = new Uint8Array([0xff, 0xd8, ...Array.from({ length: 10 }, () => segment).flat(), 0xff, 0xd9]);
    expect(countJpegStructure(fewer).metadataBytes).toBe(10 * 0xffff);
  });
});
