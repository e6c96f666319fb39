import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import {
  checkColumnAlignment,
  COLUMN_ALIGNMENT_DETECTOR,
  OCR_THRESHOLDS,
  PDF_THRESHOLDS,
} from "../../../../src/analysis/content/column-alignment.ts";
import type { DocumentText, TextLine } from "../../../../src/analysis/content/text.ts";
import type { Box } from "../../../../src/analysis/report.ts";
import { readPages, toDocumentTextPages } from "../../../../src/analysis/pdf/page-content.ts";
import { rewriteShownString, statementPdf } from "../statement-pdf.ts";

const textOf = (bytes: Uint8Array): DocumentText => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
  return { pages: toDocumentTextPages(readPages(doc, doc.countPages(), 10, { expired: () => false }).pages) };
};

const lineBox = (text: DocumentText, shown: string): Box => text.pages[0]!.lines.find((l) => l.text === shown)!.box;

/**
 * OCR lines of a photographed column: `right(y)` is where the column's right edge falls at height
 * y.
 */
const ocrColumn = (amounts: string[], right: (y: number) => number, charWidth = 14, height = 30): TextLine[] =>
  amounts.map((text, i) => {
    const y = 200 + i * 45;
    const width = text.length * charWidth;
    return { text, box: [Math.round(right(y) - width), y, width, height], confidence: 0.99, source: "ocr" };
  });

const AMOUNTS = ["54.20", "7.15", "2,400.00", "812.40", "3.90", "82.15", "46.80", "129.99", "15.00", "61.35"];

describe("amounts that leave their column", () => {
  test("a statement whose amounts are right-aligned is judged and left clean", async () => {
    const result = checkColumnAlignment(textOf(await statementPdf()));
    expect(result.detector).toBe(COLUMN_ALIGNMENT_DETECTOR);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
    expect(result.facts.columns).toBe(2);
  });

  test("an amount rewritten in place with one digit more sticks out of its column and is raised at its box", async () => {
    const text = textOf(rewriteShownString(await statementPdf(), "812.40", "1,812.40"));
    const result = checkColumnAlignment(text);
    expect(result.evidence).toHaveLength(1);
    const [e] = result.evidence;
    expect(e).toMatchObject({
      flag: "text_inconsistency",
      detector: COLUMN_ALIGNMENT_DETECTOR,
      page: 1,
      strength: PDF_THRESHOLDS.strength,
      threshold: PDF_THRESHOLDS.accuse,
    });
    expect(e!.box).toEqual(lineBox(text, "1,812.40"));
    expect(Number(e!.measured)).toBeGreaterThan(0.5);
    expect(e!.message).not.toMatch(/\d,\d|812/);
  });

  test("a rewritten amount of the same width stays on the edge: this check cannot see it", async () => {
    const result = checkColumnAlignment(textOf(rewriteShownString(await statementPdf(), "812.40", "912.40")));
    expect(result.evidence).toEqual([]);
  });

  test("a photographed column, slanted by perspective, keeps its edge; an amount two characters off it is raised", () => {
    const slant = (y: number) => 900 + 0.04 * y;
    const lines = ocrColumn(AMOUNTS, slant);
    const moved = lines[4]!;
    moved.box = [moved.box[0] + 30, moved.box[1], moved.box[2], moved.box[3]];
    const result = checkColumnAlignment({ pages: [{ page: 1, width: 1400, height: 900, lines }] });
    expect(result.evidence.map((e) => e.box)).toEqual([moved.box]);
    expect(result.evidence[0]).toMatchObject({ strength: OCR_THRESHOLDS.strength, threshold: OCR_THRESHOLDS.accuse });
  });

  test("a photographed amount one character off its column is OCR's jitter, however tight its box: clean", () => {
    // 16 pixels is 0.8 of this box's height (20): past the line-height rule, one character of 14.
    const lines = ocrColumn(AMOUNTS, (y) => 900 + 0.04 * y, 14, 20);
    const moved = lines[4]!;
    moved.box = [moved.box[0] + 16, moved.box[1], moved.box[2], moved.box[3]];
    expect(checkColumnAlignment({ pages: [{ page: 1, width: 1400, height: 900, lines }] }).evidence).toEqual([]);
  });

  test("a photographed column of six with two amounts off its edge is no right-aligned column (cells centred): clean", () => {
    const lines = ocrColumn(AMOUNTS.slice(0, 6), (y) => 900 + 0.04 * y);
    for (const moved of [lines[2]!, lines[4]!])
      moved.box = [moved.box[0] + 16, moved.box[1], moved.box[2], moved.box[3]];
    expect(checkColumnAlignment({ pages: [{ page: 1, width: 1400, height: 900, lines }] }).evidence).toEqual([]);
  });

  test("a photographed amount indented well off the column (1.9 line heights, a receipt's subtotal) is its own layout: clean", () => {
    const lines = ocrColumn(AMOUNTS, (y) => 900 + 0.04 * y);
    const indented = lines[4]!;
    indented.box = [indented.box[0] - 57, indented.box[1], indented.box[2], indented.box[3]];
    expect(checkColumnAlignment({ pages: [{ page: 1, width: 1400, height: 900, lines }] }).evidence).toEqual([]);
  });

  test("the same column, every amount on its slanted edge, is clean", () => {
    const result = checkColumnAlignment({
      pages: [{ page: 1, width: 1400, height: 900, lines: ocrColumn(AMOUNTS, (y) => 900 + 0.04 * y) }],
    });
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
  });
});
