// Statements, payslips and bills of a corpus folder as the image a customer sends (page 1
// exported at 140-180 dpi), with every amount printed on it: its text, where it lies in the
// image and how it was typeset, read from the PDF's own text layer (mupdf), so a retyped
// amount can be drawn in the same face, size and place.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { CorpusLabel } from "../labels.ts";
import type { Box } from "../render/svg.ts";
import { Rng } from "../rng.ts";

export interface PrintedAmount {
  text: string;
  /** Ink box in the image's pixels. */
  box: Box;
  /** Origin of the first glyph and the font, in PDF points from the top-left of the page. */
  x: number;
  baseline: number;
  size: number;
  bold: boolean;
}

export interface FinanceBase {
  label: CorpusLabel;
  png: Buffer;
  width: number;
  height: number;
  /** Pixels per PDF point of the export. */
  scale: number;
  pageWidth: number;
  pageHeight: number;
  amounts: PrintedAmount[];
}

// 1.234,56 · 1 234,56 · 1,234.56 · (12.00) · -5,00 € · CHF 12.50 · 3 264,86 CR: one amount, nothing
// else.
const CURRENCY = "(?:[€$£]|EUR|GBP|USD|CHF)";
const AMOUNT = new RegExp(
  String.raw`^(?:[-−+(]\s?)?(?:${CURRENCY}\s?)?\d{1,3}(?:[ .,\u00a0]\d{3})*[.,]\d{2}\)?(?:\s?(?:${CURRENCY}|CR|DR))?$`,
);

interface StextLine {
  text: string;
  x: number;
  y: number;
  bbox: { x: number; y: number; w: number; h: number };
  font: { name: string; size: number };
}

/** Page 1 of a genuine PDF, rendered at a scale drawn for this base from the seed. */
async function exportFirstPage(seed: number, dir: string, label: CorpusLabel): Promise<FinanceBase> {
  const doc = mupdf.Document.openDocument(await readFile(join(dir, label.file)), "application/pdf");
  const page = doc.loadPage(0);
  const [x0, y0, x1, y1] = page.getBounds();
  const scale = Rng.derive(seed, `manipulate:export:${label.id}`).float(1.9, 2.5);
  const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
  const stext = JSON.parse(page.toStructuredText("preserve-whitespace").asJSON()) as {
    blocks: Array<{ lines?: StextLine[] }>;
  };
  const amounts: PrintedAmount[] = [];
  for (const line of stext.blocks.flatMap((b) => b.lines ?? [])) {
    const text = line.text.trim();
    if (!AMOUNT.test(text)) continue;
    const b = line.bbox;
    amounts.push({
      text,
      box: {
        x: Math.floor(b.x * scale),
        y: Math.floor(b.y * scale),
        w: Math.ceil(b.w * scale),
        h: Math.ceil(b.h * scale),
      },
      x: line.x,
      baseline: line.y,
      size: line.font.size,
      bold: /bold/i.test(line.font.name),
    });
  }
  return {
    label,
    png: Buffer.from(pix.asPNG()),
    width: pix.getWidth(),
    height: pix.getHeight(),
    scale,
    pageWidth: x1 - x0,
    pageHeight: y1 - y0,
    amounts,
  };
}

/** The in-house corpus's clean finance PDFs (ids d…) that print at least one amount on page 1. */
export async function financeBases(seed: number, dir: string, labels: CorpusLabel[]): Promise<FinanceBase[]> {
  const clean = labels.filter(
    (l) =>
      l.id.startsWith("d") &&
      l.kind === "genuine_clean" &&
      l.format === "pdf" &&
      (l.documentType === "financial" || l.documentType === "utility_bill"),
  );
  const bases: FinanceBase[] = [];
  for (const label of clean) {
    const base = await exportFirstPage(seed, dir, label);
    if (base.amounts.length > 0) bases.push(base);
  }
  return bases;
}

/**
 * `text` typeset as the generators typeset amounts (standard Helvetica, which mupdf renders
 * with the same built-in face it rendered the page with), alone on a transparent page the
 * size of the original, exported at the same scale: an RGBA layer aligned with the base image.
 */
export async function amountLayer(base: FinanceBase, amount: PrintedAmount, text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(amount.bold ? StandardFonts.HelveticaBold : StandardFonts.Helvetica);
  const page = pdf.addPage([base.pageWidth, base.pageHeight]);
  // Amounts are right-aligned in their columns: the new one ends where the old one ended.
  const right = amount.x + font.widthOfTextAtSize(amount.text, amount.size);
  page.drawText(text, {
    x: right - font.widthOfTextAtSize(text, amount.size),
    y: base.pageHeight - amount.baseline,
    size: amount.size,
    font,
  });
  const doc = mupdf.Document.openDocument(await pdf.save(), "application/pdf");
  const pix = doc
    .loadPage(0)
    .toPixmap(mupdf.Matrix.scale(base.scale, base.scale), mupdf.ColorSpace.DeviceRGB, true, true);
  if (pix.getWidth() !== base.width || pix.getHeight() !== base.height)
    throw new Error(
      `amount layer ${pix.getWidth()}x${pix.getHeight()} differs from the page ${base.width}x${base.height}`,
    );
  return Buffer.from(pix.asPNG());
}

/**
 * A forger's raise: one digit of the whole part made larger (never a cent, rarely the first digit).
 */
export function raiseAmount(rng: Rng, text: string): string {
  const firstDigit = text.search(/\d/);
  const decimals = text.search(/[.,]\d{2}\)?(?:\s?\D*)?$/);
  const whole = [...text.slice(0, decimals)]
    .map((c, i) => (c >= "0" && c <= "9" && i > firstDigit ? i : -1))
    .filter((i) => i >= 0);
  const positions = whole.length > 0 ? whole : [firstDigit];
  const i = rng.pick(positions);
  const old = Number(text[i]);
  const d = old < 9 ? rng.int(old + 1, 9) : rng.int(1, 8);
  return text.slice(0, i) + String(d) + text.slice(i + 1);
}
