// Documents made by the tests: a text page as a PDF (test/helpers/pages.ts), the same page as
// PNG and JPEG, and hostile files.
import sharp from "sharp";
import { printedPdf, renderPdf } from "../../helpers/pages.ts";

const PAGE_LINES = ["Northwind Savings Bank", "Account holder Anna Eriksson", "Closing balance 1,234.56"];

/** A page of `lines` in 16 pt Helvetica, 40 pt apart, starting 80 pt from the top. */
export function textPdf(
  options: { lines?: string[]; pages?: number; widthPt?: number; heightPt?: number } = {},
): Uint8Array {
  const lines = (options.lines ?? PAGE_LINES).map((text, i) => ({
    text,
    font: "Helvetica" as const,
    size: 16,
    x: 60,
    y: 80 + i * 40,
  }));
  return printedPdf(lines, options);
}

export async function textImage(format: "png" | "jpeg", dpi = 150): Promise<Uint8Array> {
  const { data, width, height } = renderPdf(textPdf(), dpi);
  const image = sharp(data, { raw: { width, height, channels: 3 } }).withMetadata({ density: dpi });
  const buffer = format === "png" ? await image.png().toBuffer() : await image.jpeg({ quality: 90 }).toBuffer();
  return new Uint8Array(buffer);
}

/**
 * A PNG of a few hundred bytes whose header declares width x height pixels: what a
 * decompression bomb looks like to a decoder that trusts it. Made from a real 1x1 PNG with
 * its IHDR dimensions (and their CRC) rewritten.
 */
export async function pngDeclaring(width: number, height: number): Promise<Uint8Array> {
  const png = new Uint8Array(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } })
      .png()
      .toBuffer(),
  );
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  // Signature (8) + IHDR length (4) + "IHDR" (4), then width, height; the CRC covers type + data.
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(png.subarray(12, 29)));
  return png;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// Spaces are dropped before text is compared: OCR may split or join words.
const squash = (text: string) => text.replace(/\s+/g, "");

/** The text of lines read back, spaces dropped. */
export const readText = (lines: { text: string }[]) => lines.map((line) => squash(line.text));

/** PAGE_LINES as readText gives them back from a page that prints them. */
export const PAGE_TEXT = PAGE_LINES.map(squash);
