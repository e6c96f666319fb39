// Hostile documents and bodies, generated: each class of input that once drove the service to
// a 5xx, a bare 413 or gigabytes of memory (issue 12), small enough to make in a test.
import { deflateSync } from "node:zlib";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { makeImagePixels } from "./fixtures.ts";

const latin1 = (text: string) => Buffer.from(text, "latin1");

/** A one-page PDF around the given content stream, with a correct cross-reference table. */
function pdfWithContent(content: Uint8Array | string, pageEntries = ""): Uint8Array {
  const stream = typeof content === "string" ? latin1(content) : Buffer.from(content);
  return pdfOfObjects([
    latin1("<< /Type /Catalog /Pages 2 0 R >>"),
    latin1("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    latin1(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ${pageEntries}>>`),
    Buffer.concat([latin1(`<< /Length ${stream.length} >>\nstream\n`), stream, latin1("\nendstream")]),
  ]);
}

/**
 * A PDF of `pages` empty pages in one flat page tree: mupdf holds an entry and a parsed object
 * for each, so its heap grows past its initial 22 MiB (to 27.7 MB for 40,000 pages, 4.2 MB).
 */
export const manyPagesPdf = (pages = 40_000): Uint8Array =>
  pdfOfObjects([
    latin1("<< /Type /Catalog /Pages 2 0 R >>"),
    latin1(
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${pages} >>`,
    ),
    ...Array.from({ length: pages }, () => latin1("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")),
  ]);

/** The objects (numbered from 1, the first the catalog) with a correct cross-reference table. */
function pdfOfObjects(objects: Buffer[]): Uint8Array {
  const parts: Buffer[] = [latin1("%PDF-1.7\n")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([latin1(`${index + 1} 0 obj\n`), body, latin1("\nendobj\n")]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    "0000000000 65535 f \n",
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`),
  ].join("");
  parts.push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/** A page whose content saves the graphics state `depth` times without restoring it. */
export const deeplyNestedQPdf = (depth = 100_000): Uint8Array =>
  pdfWithContent(`${"q\n".repeat(depth)}0 0 1 rg 10 10 100 100 re f\n`);

/** A page whose content stream holds an array nested `depth` levels deep. */
export const deeplyNestedArrayPdf = (depth = 100_000): Uint8Array =>
  pdfWithContent(`${"[".repeat(depth)}${"]".repeat(depth)} TJ\n`);

/** A page dictionary holding an entry nested `depth` dictionaries and arrays deep. */
export const deeplyNestedObjectPdf = (depth = 50_000): Uint8Array =>
  pdfWithContent("0 0 1 rg 10 10 100 100 re f\n", `/Deep ${"<< /A [".repeat(depth)}${"] >>".repeat(depth)} `);

/** A JSON text nested `depth` arrays deep inside a batch body's `documents`. */
export const deeplyNestedJson = (depth = 100_000): string =>
  `{"documents":${"[".repeat(depth)}${"]".repeat(depth)},"callbackUrl":"https://example.com/hook","callbackSecret":"0123456789abcdef"}`;

/**
 * A progressive JPEG whose scans are repeated `copies` times after the first pass: each
 * repetition is a legal-looking scan the decoder works through again (libjpeg only warns
 * about the bogus progression), so the scan count is what costs.
 */
export async function manyScanJpeg(copies = 60, width = 640, height = 480): Promise<Uint8Array> {
  const { data } = makeImagePixels({ width, height, seed: 7 });
  const bytes = await sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85, progressive: true })
    .toBuffer();
  const firstScan = findMarker(bytes, 0xda, 2);
  const eoi = bytes.length - 2;
  const scans = bytes.subarray(firstScan, eoi);
  return new Uint8Array(
    Buffer.concat([bytes.subarray(0, eoi), ...Array.from({ length: copies }, () => scans), bytes.subarray(eoi)]),
  );
}

/**
 * Offset of the first marker 0xFF `code` at or after `from` (headers only: no entropy data
 * skipped).
 */
function findMarker(bytes: Uint8Array, code: number, from: number): number {
  let p = from;
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) throw new Error("not at a marker");
    if (bytes[p + 1] === code) return p;
    p += 2 + ((bytes[p + 2]! << 8) | bytes[p + 3]!);
  }
  throw new Error("marker not found");
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Inserts chunks right after a PNG's IHDR. */
function withPngChunks(png: Uint8Array, chunks: Buffer[]): Uint8Array {
  const afterIhdr = 8 + 8 + 13 + 4;
  return new Uint8Array(Buffer.concat([png.subarray(0, afterIhdr), ...chunks, png.subarray(afterIhdr)]));
}

/** A small PNG carrying an iCCP chunk that inflates to `inflatedBytes` (zeros compress ~1000:1). */
export async function iccBombPng(inflatedBytes = 200_000_000): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ffffff" } })
    .png()
    .toBuffer();
  const profile = deflateSync(Buffer.alloc(inflatedBytes), { level: 9 });
  return withPngChunks(png, [pngChunk("iCCP", Buffer.concat([latin1("bomb\0\0"), profile]))]);
}

/** A small PNG carrying a compressed text chunk (zTXt) that inflates to `inflatedBytes`. */
export async function textBombPng(inflatedBytes = 200_000_000): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ffffff" } })
    .png()
    .toBuffer();
  const text = deflateSync(Buffer.alloc(inflatedBytes, 0x41), { level: 9 });
  return withPngChunks(png, [pngChunk("zTXt", Buffer.concat([latin1("Comment\0\0"), text]))]);
}

/** A PNG of `width`×`height` flat pixels: tiny on the wire, large once decoded. */
export const largePng = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: "#f4f1ea" } })
    .png({ compressionLevel: 9 })
    .toBuffer();

/** A JPEG of `width`×`height` flat pixels. */
export const largeJpeg = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: "#f4f1ea" } })
    .jpeg({ quality: 50 })
    .toBuffer();

/**
 * A PDF of `pages` pages of `widthPt`×`heightPt` points, each with lines of text and a few
 * filled boxes: at 150 dpi a 2400×3000 pt page is 31 MP, rendered at the largest size the
 * sidecar's memory budget allows.
 */
export async function largePagePdf(pages = 3, widthPt = 2400, heightPt = 3000): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index++) {
    const page = pdf.addPage([widthPt, heightPt]);
    for (let y = heightPt - 120; y > 120; y -= 160) {
      page.drawText(`Page ${index + 1} line ${Math.round(y)}: SPECIMEN DOCUMENT 0123456789`, {
        x: 100,
        y,
        size: 48,
        font,
      });
    }
    page.drawRectangle({ x: 200, y: 200, width: widthPt / 3, height: heightPt / 4, color: rgb(0.2, 0.4, 0.7) });
  }
  return pdf.save();
}
