import { describe, expect, test } from "bun:test";
import { isAppError } from "../../../src/errors.ts";
import { validateDocument } from "../../../src/intake/validate.ts";
import { concatBytes, cutEnd, makeGif, makeJpeg, makePdf, makePng, withIncrementalUpdate } from "./fixtures.ts";

async function refusal(bytes: Uint8Array): Promise<{ code: string; message: string }> {
  try {
    await validateDocument(bytes);
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("the document was accepted");
}

describe("validateDocument refuses as UNSUPPORTED_FORMAT", () => {
  test("empty input", async () => {
    expect(await refusal(new Uint8Array(0))).toEqual({ code: "UNSUPPORTED_FORMAT", message: "the document is empty" });
  });

  test("random bytes", async () => {
    const random = crypto.getRandomValues(new Uint8Array(10_000)).fill(0, 0, 8);
    expect((await refusal(random)).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("a GIF", async () => {
    expect((await refusal(await makeGif())).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("a JPEG cut anywhere: in the middle, just before its end marker, or its last byte", async () => {
    const jpeg = await makeJpeg();
    for (const cut of [Math.floor(jpeg.length / 2), 100, 2, 1]) {
      expect((await refusal(cutEnd(jpeg, cut))).code).toBe("UNSUPPORTED_FORMAT");
    }
  });

  test("a PNG cut in its image data or inside its final IEND chunk", async () => {
    const png = await makePng();
    for (const cut of [Math.floor(png.length / 2), 20, 12, 4, 1]) {
      expect((await refusal(cutEnd(png, cut))).code).toBe("UNSUPPORTED_FORMAT");
    }
  });

  test("the magic bytes of a JPEG or PNG followed by nothing decodable", async () => {
    const jpegHead = concatBytes(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), new Uint8Array(200));
    const pngHead = (await makePng()).subarray(0, 40);
    expect((await refusal(jpegHead)).code).toBe("UNSUPPORTED_FORMAT");
    expect((await refusal(pngHead)).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("a PDF cut anywhere, from its last byte of %%EOF to its middle", async () => {
    const pdf = makePdf();
    for (const cut of [3, 6, 30, 200, Math.floor(pdf.length / 2)]) {
      expect((await refusal(cutEnd(pdf, cut))).code).toBe("UNSUPPORTED_FORMAT");
    }
  });

  test("a PDF cut inside its last incremental update, which mupdf alone would read as the earlier revision", async () => {
    const updated = withIncrementalUpdate(makePdf());
    for (const cut of [6, 20, 60]) {
      expect((await refusal(cutEnd(updated, cut))).message).toContain("does not end at its %%EOF");
    }
  });

  test("a PDF whose middle is missing, so its cross-reference table needs repair", async () => {
    const pdf = makePdf();
    const holed = concatBytes(pdf.subarray(0, Math.floor(pdf.length / 3)), pdf.subarray(pdf.length - 200));
    expect(await refusal(holed)).toEqual({
      code: "UNSUPPORTED_FORMAT",
      message: "the PDF cross-reference table is broken (truncated or corrupt)",
    });
  });

  test("a PDF header followed by no PDF", async () => {
    expect((await refusal(new TextEncoder().encode("%PDF-1.7\nhello\n%%EOF\n"))).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("a PDF without pages", async () => {
    expect(await refusal(makePdf(0))).toEqual({ code: "UNSUPPORTED_FORMAT", message: "the PDF has no pages" });
  });

  test("a PDF that needs a password to open", async () => {
    const locked = makePdf(1, "encrypt=aes-256,user-password=user,owner-password=owner");
    expect(await refusal(locked)).toEqual({ code: "UNSUPPORTED_FORMAT", message: "the PDF is password-protected" });
  });
});
