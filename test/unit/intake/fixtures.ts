// Documents made by the tests themselves: a noisy raster (so compressed data is long
// enough to cut) and a one-page text PDF, written by the same libraries intake trusts.

import * as mupdf from "mupdf";
import sharp from "sharp";

function noise(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 7919) % 251;
  return pixels;
}

function raster(width: number, height: number) {
  return sharp(noise(width, height), { raw: { width, height, channels: 3 } });
}

export const makeJpeg = (width = 320, height = 240): Promise<Buffer> =>
  raster(width, height).jpeg({ quality: 90 }).toBuffer();
export const makePng = (width = 320, height = 240): Promise<Buffer> => raster(width, height).png().toBuffer();
export const makeGif = (width = 64, height = 48): Promise<Buffer> => raster(width, height).gif().toBuffer();
export const makeWebp = (width = 64, height = 48): Promise<Buffer> => raster(width, height).webp().toBuffer();

/** A PDF with `pages` text pages; `saveOptions` is mupdf's option string (e.g. encryption). */
export function makePdf(pages = 1, saveOptions = "compress"): Uint8Array {
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font("Helvetica"));
  for (let index = 0; index < pages; index++) {
    const page = document.addPage(
      [0, 0, 595, 842],
      0,
      { Font: { F1: font } },
      `BT /F1 24 Tf 72 720 Td (Statement ${index + 1}) Tj ET`,
    );
    document.insertPage(-1, page);
  }
  const bytes = document.saveToBuffer(saveOptions).asUint8Array().slice();
  document.destroy();
  return bytes;
}

/** `pdf` with an incremental update appended (a changed title), as PDF editors save. */
export function withIncrementalUpdate(pdf: Uint8Array): Uint8Array {
  const document = mupdf.Document.openDocument(pdf, "application/pdf").asPDF();
  if (document === null) throw new Error("fixture is not a PDF");
  document.setMetaData("info:Title", "edited");
  const bytes = document.saveToBuffer("incremental").asUint8Array().slice();
  document.destroy();
  return bytes;
}

export const cutEnd = (bytes: Uint8Array, count: number): Uint8Array => bytes.subarray(0, bytes.length - count);

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}
