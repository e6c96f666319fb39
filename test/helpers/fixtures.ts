// Fixture generators for tests: every document a test needs is made here, from a seed,
// so the suite reads nothing from outside the repository.
import sharp from "sharp";
import * as mupdf from "mupdf";
import { mulberry32 } from "../../scripts/mulberry32.ts";

const gaussian = (rand: () => number): number =>
  Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());

export interface PixelOptions {
  width?: number;
  height?: number;
  seed?: number;
  /** Standard deviation of the sensor-like noise added to every pixel. */
  noise?: number;
}

/**
 * RGB pixels that look like a photographed document: lit paper with a gradient, soft
 * colour blobs, dark text-like bars and sensor noise. Natural enough that DCT statistics
 * behave like a camera image's.
 */
export const makeImagePixels = (opts: PixelOptions = {}): { data: Buffer; width: number; height: number } => {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  // mulberry32, so fixtures are identical run to run.
  const rand = mulberry32(opts.seed ?? 1);
  const noise = opts.noise ?? 6;
  const blobs = Array.from({ length: 6 }, () => ({
    x: rand() * width,
    y: rand() * height,
    r: (0.1 + rand() * 0.3) * Math.max(width, height),
    c: [rand() * 80 - 40, rand() * 80 - 40, rand() * 80 - 40],
  }));
  const bars = Array.from({ length: Math.max(4, Math.floor(height / 40)) }, (_, i) => ({
    x: width * (0.08 + rand() * 0.1),
    y: height * 0.1 + i * 34 + rand() * 6,
    w: width * (0.3 + rand() * 0.5),
    h: 8 + rand() * 6,
  }));
  // Multi-octave value noise: natural photos have texture at every scale, which gives
  // DCT coefficients their broad, smooth (Laplacian-like) distribution.
  const octaves = [4, 8, 16, 32, 64].map((cell) => {
    const gw = Math.ceil(width / cell) + 2;
    const gh = Math.ceil(height / cell) + 2;
    return { cell, gw, amp: 6 + cell / 3, grid: Float32Array.from({ length: gw * gh }, () => rand() * 2 - 1) };
  });
  const texture = (x: number, y: number): number => {
    let v = 0;
    for (const o of octaves) {
      const fx = x / o.cell;
      const fy = y / o.cell;
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const tx = fx - ix;
      const ty = fy - iy;
      const g = (gx: number, gy: number) => o.grid[gy * o.gw + gx]!;
      const top = g(ix, iy) * (1 - tx) + g(ix + 1, iy) * tx;
      const bottom = g(ix, iy + 1) * (1 - tx) + g(ix + 1, iy + 1) * tx;
      v += o.amp * (top * (1 - ty) + bottom * ty);
    }
    return v;
  };
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const base = 130 + 60 * (x / width) * (1 - y / height / 2);
      const rgb = [base + 10, base, base - 15];
      for (const b of blobs) {
        const d2 = ((x - b.x) ** 2 + (y - b.y) ** 2) / (b.r * b.r);
        const w = Math.exp(-d2);
        for (let c = 0; c < 3; c++) rgb[c]! += b.c[c]! * w;
      }
      for (const bar of bars) {
        if (x >= bar.x && x < bar.x + bar.w && y >= bar.y && y < bar.y + bar.h) {
          for (let c = 0; c < 3; c++) rgb[c] = rgb[c]! * 0.25;
        }
      }
      const i = (y * width + x) * 3;
      const n = gaussian(rand) * noise + texture(x, y);
      for (let c = 0; c < 3; c++)
        data[i + c] = Math.max(0, Math.min(255, Math.round(rgb[c]! + n + gaussian(rand) * noise * 0.3)));
    }
  }
  return { data, width, height };
};

/** EXIF as sharp's withExif takes it: IFD0 = main image tags, IFD2 = the Exif IFD. */
export interface ExifTags {
  IFD0?: Record<string, string>;
  IFD2?: Record<string, string>;
  IFD3?: Record<string, string>;
}

/** EXIF a phone or camera writes at capture time; override any tag. */
export const cameraExif = (overrides: ExifTags = {}): ExifTags => ({
  IFD0: {
    Make: "Canon",
    Model: "Canon EOS 80D",
    DateTime: "2024:03:14 09:26:53",
    ...overrides.IFD0,
  },
  IFD2: {
    DateTimeOriginal: "2024:03:14 09:26:53",
    DateTimeDigitized: "2024:03:14 09:26:53",
    ExposureTime: "1/125",
    FNumber: "56/10",
    ISOSpeedRatings: "200",
    FocalLength: "35/1",
    ...overrides.IFD2,
  },
  ...(overrides.IFD3 ? { IFD3: overrides.IFD3 } : {}),
});

/** An XMP packet with the given xmp:/xmpMM: properties and optional history entries. */
export const xmpPacket = (
  props: Record<string, string>,
  history: Array<{ action: string; softwareAgent: string; when: string }> = [],
): string => {
  const attrs = Object.entries(props)
    .map(([k, v]) => `${k}="${v}"`)
    .join(" ");
  const hist = history.length
    ? `<xmpMM:History><rdf:Seq>${history
        .map(
          (h) =>
            `<rdf:li rdf:parseType="Resource"><stEvt:action>${h.action}</stEvt:action><stEvt:softwareAgent>${h.softwareAgent}</stEvt:softwareAgent><stEvt:when>${h.when}</stEvt:when></rdf:li>`,
        )
        .join("")}</rdf:Seq></xmpMM:History>`
    : "";
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" ` +
    `xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" ${attrs}>${hist}</rdf:Description>` +
    `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
};

export interface JpegOptions extends PixelOptions {
  quality?: number;
  exif?: ExifTags;
  xmp?: string;
  /** sharp's chromaSubsampling, "4:2:0" (default) or "4:4:4". */
  chromaSubsampling?: string;
}

/** A JPEG as an IJG-table encoder (libjpeg via sharp) writes it. */
export const makeJpeg = async (opts: JpegOptions = {}): Promise<Uint8Array> => {
  const { data, width, height } = makeImagePixels(opts);
  let img = sharp(data, { raw: { width, height, channels: 3 } }).jpeg({
    quality: opts.quality ?? 90,
    chromaSubsampling: opts.chromaSubsampling ?? "4:2:0",
  });
  if (opts.exif) img = img.withExif(opts.exif as never);
  if (opts.xmp) img = img.withXmp(opts.xmp);
  return new Uint8Array(await img.toBuffer());
};

export interface PngOptions extends PixelOptions {
  xmp?: string;
}

export const makePng = async (opts: PngOptions = {}): Promise<Uint8Array> => {
  const { data, width, height } = makeImagePixels(opts);
  let img = sharp(data, { raw: { width, height, channels: 3 } }).png();
  if (opts.xmp) img = img.withXmp(opts.xmp);
  return new Uint8Array(await img.toBuffer());
};

export interface ResaveOptions {
  /** Keep the input's EXIF/XMP (an editor does); messaging apps drop it. */
  keepMetadata?: boolean;
  /** Replace the EXIF with these tags (e.g. an editor's Software tag). */
  exif?: ExifTags;
  xmp?: string;
}

/** Decodes and re-encodes a JPEG at another quality, on the same 8x8 grid. */
export const resaveJpeg = async (jpeg: Uint8Array, quality: number, opts: ResaveOptions = {}): Promise<Uint8Array> => {
  let img = sharp(jpeg).jpeg({ quality });
  if (opts.keepMetadata) img = img.keepMetadata();
  if (opts.exif) img = img.withExif(opts.exif as never);
  if (opts.xmp) img = img.withXmp(opts.xmp);
  return new Uint8Array(await img.toBuffer());
};

/** One text line of a generated PDF; `font` is a base-14 name such as "Times-Roman". */
export type PdfLine = string | { text: string; font?: string; size?: number };

export interface PdfOptions {
  pages?: number;
  lines?: PdfLine[];
  /** Base-14 font of lines that name none. */
  font?: string;
  size?: number;
  /** Page size in points; A4 by default. */
  pageSize?: [number, number];
  producer?: string;
  creator?: string;
  /** PDF dates, e.g. "D:20240314092653Z". */
  creationDate?: string;
  modDate?: string;
  xmp?: string;
}

export const STATEMENT_LINES: PdfLine[] = [
  "First Example Bank plc",
  "Account statement",
  "Account number 12345678  Sort code 12-34-56",
  "Statement period 01/03/2024 to 31/03/2024",
  "Opening balance 1,250.00",
  "03/03 Grocery store -54.20",
  "10/03 Salary +2,400.00",
  "18/03 Electricity -82.15",
  "Closing balance 3,513.65",
];

/** Where line `index` of a generated page sits: baseline y and left x, PDF coordinates. */
const PDF_LAYOUT = { left: 72, top: 760, leading: 18, size: 11 } as const;

const escapePdfString = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);

const lineSpec = (line: PdfLine, font: string, size: number) =>
  typeof line === "string"
    ? { text: line, font, size }
    : { text: line.text, font: line.font ?? font, size: line.size ?? size };

/** A single-generation PDF, as a report generator writes one (MuPDF does the writing). */
export const makePdf = (opts: PdfOptions = {}): Uint8Array => {
  const doc = new mupdf.PDFDocument();
  const lines = (opts.lines ?? STATEMENT_LINES).map((l) =>
    lineSpec(l, opts.font ?? "Helvetica", opts.size ?? PDF_LAYOUT.size),
  );
  const fontNames = [...new Set(lines.map((l) => l.font))];
  const fonts: Record<string, mupdf.PDFObject> = {};
  fontNames.forEach((name, i) => {
    fonts[`F${i + 1}`] = doc.addSimpleFont(new mupdf.Font(name));
  });
  const content = lines
    .map((l, i) => {
      const y = PDF_LAYOUT.top - i * PDF_LAYOUT.leading;
      return `BT /F${fontNames.indexOf(l.font) + 1} ${l.size} Tf ${PDF_LAYOUT.left} ${y} Td (${escapePdfString(l.text)}) Tj ET`;
    })
    .join("\n");
  const [w, h] = opts.pageSize ?? [595, 842];
  for (let p = 0; p < (opts.pages ?? 1); p++) {
    const resources = doc.addObject({ Font: fonts });
    doc.insertPage(-1, doc.addPage([0, 0, w, h], 0, resources, content));
  }
  doc.setMetaData("info:Producer", opts.producer ?? "ReportLab PDF Library - www.reportlab.com");
  if (opts.creator) doc.setMetaData("info:Creator", opts.creator);
  doc.setMetaData("info:CreationDate", opts.creationDate ?? "D:20240401080000Z");
  doc.setMetaData("info:ModDate", opts.modDate ?? opts.creationDate ?? "D:20240401080000Z");
  if (opts.xmp) {
    const meta = doc.addStream(opts.xmp, { Type: "Metadata", Subtype: "XML" });
    doc.getTrailer().get("Root").put("Metadata", meta);
  }
  const out = doc.saveToBuffer("").asUint8Array().slice();
  doc.destroy();
  return out;
};

/** Applies `edit` and appends the change as an incremental update, as PDF editors do. */
export const editPdfIncrementally = (pdf: Uint8Array, edit: (doc: mupdf.PDFDocument) => void): Uint8Array => {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf").asPDF()!;
  edit(doc);
  const out = doc.saveToBuffer("incremental").asUint8Array().slice();
  doc.destroy();
  return out;
};

/** Device-space rectangle [x0, y0, x1, y1] (top-left origin) around line `index`. */
export const lineRect = (index: number, width = 200, pageHeight = 842): [number, number, number, number] => {
  const baseline = pageHeight - (PDF_LAYOUT.top - index * PDF_LAYOUT.leading);
  return [PDF_LAYOUT.left - 2, baseline - PDF_LAYOUT.size - 1, PDF_LAYOUT.left + width, baseline + 4];
};

/** Adds an annotation (FreeText, Square, Stamp, ...) with an appearance, incrementally. */
export const addAnnotation = (
  pdf: Uint8Array,
  annot: { type: mupdf.PDFAnnotationType; rect: [number, number, number, number]; contents?: string; page?: number },
): Uint8Array =>
  editPdfIncrementally(pdf, (doc) => {
    const page = doc.loadPage(annot.page ?? 0);
    const a = page.createAnnotation(annot.type);
    a.setRect(annot.rect);
    if (annot.contents) a.setContents(annot.contents);
    if (annot.type === "Square") a.setInteriorColor([1, 1, 1]);
    a.update();
  });

/** Appends page content drawn after the original (the page's /Contents becomes an array). */
export const appendPageContent = (
  doc: mupdf.PDFDocument,
  pageIndex: number,
  content: string,
  fonts: Record<string, string> = {},
): void => {
  const page = doc.findPage(pageIndex);
  const old = page.get("Contents");
  const added = doc.addStream(content, {});
  const array = doc.newArray();
  if (old.isArray())
    old.forEach((c) => {
      array.push(c);
    });
  else array.push(old);
  array.push(added);
  page.put("Contents", array);
  const fontDict = page.get("Resources").get("Font");
  for (const [name, base] of Object.entries(fonts)) fontDict.put(name, doc.addSimpleFont(new mupdf.Font(base)));
};

/** White rectangle over line `index`, then new text typed on top: white-out and retype. */
export const whiteOutAndRetype = (pdf: Uint8Array, index: number, text: string, font = "Helvetica"): Uint8Array =>
  editPdfIncrementally(pdf, (doc) => {
    const y = PDF_LAYOUT.top - index * PDF_LAYOUT.leading;
    appendPageContent(
      doc,
      0,
      `q 1 1 1 rg ${PDF_LAYOUT.left - 2} ${y - 4} 260 ${PDF_LAYOUT.size + 5} re f Q ` +
        `BT /FX 11 Tf ${PDF_LAYOUT.left} ${y} Td (${escapePdfString(text)}) Tj ET`,
      { FX: font },
    );
  });

/** A document-level JavaScript OpenAction, run when the file is opened. */
export const addOpenActionJavaScript = (pdf: Uint8Array, js: string): Uint8Array =>
  editPdfIncrementally(pdf, (doc) => {
    const action = doc.addObject({ Type: "Action", S: "JavaScript", JS: doc.newString(js) });
    doc.getTrailer().get("Root").put("OpenAction", action);
  });

/**
 * Rewrites the 8-bit quantization tables in a JPEG's DQT segments (values in zigzag
 * order), leaving everything else as it was: a header as another encoder writes it.
 */
export const rewriteJpegQuantTables = (jpeg: Uint8Array, tables: Record<number, number[]>): Uint8Array => {
  const out = jpeg.slice();
  let p = 2;
  while (p + 4 <= out.length && out[p] === 0xff && out[p + 1] !== 0xda) {
    const length = (out[p + 2]! << 8) | out[p + 3]!;
    if (out[p + 1] === 0xdb) {
      let q = p + 4;
      while (q < p + 2 + length) {
        const id = out[q]! & 0x0f;
        const table = tables[id];
        if (table) for (let i = 0; i < 64; i++) out[q + 1 + i] = table[i]!;
        q += 65;
      }
    }
    p += 2 + length;
  }
  return out;
};

/** 64 table entries (≥1, ≤255) that add up to `sum`. */
export const tableWithSum = (sum: number): number[] => {
  const t = new Array<number>(64).fill(1);
  let left = sum - 64;
  for (let i = 0; left > 0; i = (i + 1) % 64) {
    if (t[i]! < 255) {
      t[i]!++;
      left--;
    }
  }
  return t;
};
