// Documents made by the tests: a text page as a PDF (mupdf, base-14 fonts, so no system fonts
// are needed), the same page as PNG and JPEG, and hostile files.
import * as mupdf from "mupdf";
import sharp from "sharp";

export const PAGE_LINES = ["Northwind Savings Bank", "Account holder Anna Eriksson", "Closing balance 1,234.56"];

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A page of `lines` in 16 pt Helvetica, 40 pt apart, starting 80 pt from the top. */
export function textPdf(options: { lines?: string[]; pages?: number; widthPt?: number; heightPt?: number } = {}): Uint8Array {
  const lines = options.lines ?? PAGE_LINES;
  const widthPt = options.widthPt ?? 595;
  const heightPt = options.heightPt ?? 842;
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  const resources = doc.addObject({ Font: { Helvetica: font } });
  const contents = lines.map((text, i) => `BT /Helvetica 16 Tf 60 ${heightPt - 80 - i * 40} Td (${escapePdf(text)}) Tj ET`).join("\n");
  for (let page = 0; page < (options.pages ?? 1); page++) doc.insertPage(-1, doc.addPage([0, 0, widthPt, heightPt], 0, resources, contents));
  const bytes = doc.saveToBuffer("compress").asUint8Array().slice();
  doc.destroy();
  return bytes;
}

/** The first page of a PDF rendered to RGB at `dpi`. */
export function renderRgb(pdf: Uint8Array, dpi: number): { data: Uint8Array; width: number; height: number } {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width * 3), y * width * 3);
  pixmap.destroy();
  doc.destroy();
  return { data, width, height };
}

export async function textImage(format: "png" | "jpeg", dpi = 150): Promise<Uint8Array> {
  const { data, width, height } = renderRgb(textPdf(), dpi);
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
  const png = new Uint8Array(await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } }).png().toBuffer());
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

/** Plain text: the words of the page read back, spaces dropped (OCR may split or join words). */
export const squash = (text: string) => text.replace(/\s+/g, "");
