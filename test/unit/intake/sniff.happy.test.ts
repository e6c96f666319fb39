import { describe, expect, test } from "bun:test";
import { sniffFormat } from "../../../src/intake/sniff.ts";
import { concatBytes, makeJpeg, makePdf, makePng } from "./fixtures.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

describe("sniffFormat", () => {
  test("recognises a JPEG, a PNG and a PDF by their first bytes", async () => {
    expect(sniffFormat(await makeJpeg())).toBe("jpeg");
    expect(sniffFormat(await makePng())).toBe("png");
    expect(sniffFormat(makePdf())).toBe("pdf");
  });

  test("needs no more than the magic bytes themselves", () => {
    expect(sniffFormat(new Uint8Array([0xff, 0xd8, 0xff]))).toBe("jpeg");
    expect(sniffFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffFormat(ascii("%PDF-"))).toBe("pdf");
  });

  test("finds a PDF header anywhere in the first 1024 bytes, as PDF readers do", () => {
    const pdf = makePdf();
    expect(sniffFormat(concatBytes(new Uint8Array(1019).fill(0x20), pdf))).toBe("pdf");
    expect(sniffFormat(concatBytes(new Uint8Array(1020).fill(0x20), pdf))).toBeNull();
  });

  test("ignores what a file claims to be: a PDF called scan.jpg is still a PDF", () => {
    const file = new File([makePdf()], "scan.jpg", { type: "image/jpeg" });
    return file.bytes().then((bytes) => expect(sniffFormat(bytes)).toBe("pdf"));
  });
});
