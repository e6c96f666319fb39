import { describe, expect, test } from "bun:test";
import { validateDocument } from "../../../src/intake/validate.ts";
import { concatBytes, makeJpeg, makePdf, makePng, withIncrementalUpdate } from "./fixtures.ts";

describe("validateDocument accepts", () => {
  test("a JPEG that decodes completely, returning the same bytes", async () => {
    const jpeg = await makeJpeg();
    const document = await validateDocument(jpeg);
    expect(document.format).toBe("jpeg");
    expect(document.bytes).toBe(jpeg);
  });

  test("a progressive JPEG", async () => {
    const sharp = (await import("sharp")).default;
    const progressive = await sharp(await makeJpeg())
      .jpeg({ progressive: true })
      .toBuffer();
    expect((await validateDocument(progressive)).format).toBe("jpeg");
  });

  test("a JPEG with harmless decoder warnings, such as stray bytes before a marker (common from scanners)", async () => {
    const jpeg = await makeJpeg();
    const startOfFrame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const stray = concatBytes(jpeg.subarray(0, startOfFrame), new Uint8Array([0, 0]), jpeg.subarray(startOfFrame));
    expect((await validateDocument(stray)).format).toBe("jpeg");
  });

  test("a PNG that decodes completely", async () => {
    expect((await validateDocument(await makePng())).format).toBe("png");
  });

  test("a PDF with pages", async () => {
    expect((await validateDocument(makePdf(3))).format).toBe("pdf");
  });

  test("a PDF saved with an incremental update, which is evidence to analyse, not damage", async () => {
    expect((await validateDocument(withIncrementalUpdate(makePdf()))).format).toBe("pdf");
  });

  test("a PDF that only restricts permissions with an owner password", async () => {
    const restricted = makePdf(1, "encrypt=aes-256,owner-password=owner");
    expect((await validateDocument(restricted)).format).toBe("pdf");
  });

  test("a PDF with blank padding after %%EOF", async () => {
    const padded = concatBytes(makePdf(), new Uint8Array([0x0d, 0x0a, 0x00, 0x00, 0x20]));
    expect((await validateDocument(padded)).format).toBe("pdf");
  });

  test("a PDF named scan.jpg, as a PDF: the content decides, not the name", async () => {
    const bytes = await new File([makePdf()], "scan.jpg", { type: "image/jpeg" }).bytes();
    expect((await validateDocument(bytes)).format).toBe("pdf");
  });
});
