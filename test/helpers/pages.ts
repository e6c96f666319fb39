// Pages of printed text made by the tests and benchmarks themselves: a PDF written with mupdf
// using base-14 fonts (so no system fonts are needed), rendered back to RGB pixels, with the
// printed lines' boxes as an OCR engine would report them.
import * as mupdf from "mupdf";
import type { RgbImage } from "../../sidecar/image/rgb.ts";
import type { OcrLine } from "../../sidecar/ocr/engine.ts";
import { packPixmap } from "../../src/pdf/pack-pixmap.ts";

export interface PrintedLine {
  text: string;
  font: "Helvetica" | "Courier";
  size: number;
  x: number;
  /** Baseline, points from the top of the page. */
  y: number;
  /** Counter-clockwise slant in degrees, as a tilted scan would show it. */
  angle?: number;
}

export interface PageSize {
  /** Points; A4 (595 x 842) by default. */
  widthPt?: number;
  heightPt?: number;
}

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function showText(line: PrintedLine, heightPt: number): string {
  const baseline = heightPt - line.y;
  if (!line.angle) return `BT /${line.font} ${line.size} Tf ${line.x} ${baseline} Td (${escapePdf(line.text)}) Tj ET`;
  const a = (line.angle * Math.PI) / 180;
  const matrix = [Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), line.x, baseline]
    .map((v) => v.toFixed(4))
    .join(" ");
  return `BT /${line.font} ${line.size} Tf ${matrix} Tm (${escapePdf(line.text)}) Tj ET`;
}

/** A PDF of `pages` pages (default 1), each printing `lines`; the caller destroys it. */
function printedDocument(lines: PrintedLine[], options: PageSize & { pages?: number }): mupdf.PDFDocument {
  const widthPt = options.widthPt ?? 595;
  const heightPt = options.heightPt ?? 842;
  const doc = new mupdf.PDFDocument();
  const resources = doc.addObject({
    Font: {
      Helvetica: doc.addSimpleFont(new mupdf.Font("Helvetica")),
      Courier: doc.addSimpleFont(new mupdf.Font("Courier")),
    },
  });
  const contents = lines.map((line) => showText(line, heightPt)).join("\n");
  for (let page = 0; page < (options.pages ?? 1); page++)
    doc.insertPage(-1, doc.addPage([0, 0, widthPt, heightPt], 0, resources, contents));
  return doc;
}

/** Pixels of `page` at `scale` pixels per point, packed without mupdf's row padding. */
function rasterize(page: mupdf.Page, scale: number): RgbImage {
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  try {
    return packPixmap(pixmap);
  } finally {
    pixmap.destroy();
  }
}

/** The bytes of a PDF whose every page prints `lines`. */
export function printedPdf(lines: PrintedLine[], options: PageSize & { pages?: number } = {}): Uint8Array {
  const doc = printedDocument(lines, options);
  try {
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/** The first page of a PDF rendered to RGB at `dpi`. */
export function renderPdf(pdf: Uint8Array, dpi: number): RgbImage {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    return rasterize(doc.loadPage(0), dpi / 72);
  } finally {
    doc.destroy();
  }
}

/** A page printing `lines`, rendered to RGB at `dpi`. */
export function renderPrinted(lines: PrintedLine[], options: PageSize & { dpi: number }): RgbImage {
  return onPrintedPage(lines, options, (page) => rasterize(page, options.dpi / 72));
}

/**
 * A page printing `lines` rendered at `dpi`, with each printed line's box in pixels as mupdf's
 * structured text finds it: what a perfect OCR would return (confidence 0.99).
 */
export function renderPrintedWithLines(
  lines: PrintedLine[],
  options: PageSize & { dpi: number },
): { image: RgbImage; lines: OcrLine[] } {
  const scale = options.dpi / 72;
  return onPrintedPage(lines, options, (page) => ({ image: rasterize(page, scale), lines: textLines(page, scale) }));
}

function onPrintedPage<T>(lines: PrintedLine[], size: PageSize, use: (page: mupdf.Page) => T): T {
  const doc = printedDocument(lines, size);
  try {
    return use(doc.loadPage(0));
  } finally {
    doc.destroy();
  }
}

function textLines(page: mupdf.Page, scale: number): OcrLine[] {
  const text = JSON.parse(page.toStructuredText("preserve-whitespace").asJSON(scale)) as {
    blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[];
  };
  return text.blocks
    .flatMap((block) => block.lines ?? [])
    .map((line) => {
      const box: OcrLine["box"] = [
        Math.floor(line.bbox.x),
        Math.floor(line.bbox.y),
        Math.ceil(line.bbox.w),
        Math.ceil(line.bbox.h),
      ];
      const [x, y, w, h] = box;
      return {
        text: line.text,
        confidence: 0.99,
        characters: [],
        box,
        polygon: [
          [x, y],
          [x + w, y],
          [x + w, y + h],
          [x, y + h],
        ],
      };
    });
}
