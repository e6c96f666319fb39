import { describe, expect, test } from "bun:test";
import { checkColumnAlignment } from "../../../../src/analysis/content/column-alignment.ts";
import type { DocumentText, TextLine } from "../../../../src/analysis/content/text.ts";

const page = (lines: TextLine[]): DocumentText => ({ pages: [{ page: 1, width: 595, height: 842, lines }] });
const cell = (text: string, x: number, y: number, width = text.length * 4.5): TextLine => ({
  text,
  box: [x, y, width, 12],
  confidence: 1,
  source: "pdf",
});
const AMOUNTS = ["54.20", "7.15", "2,400.00", "812.40", "3.90", "82.15", "1,812.40", "129.99"];

describe("columns the alignment check must not accuse", () => {
  test("a left-aligned column of amounts of differing widths is not read as a broken right edge", () => {
    const result = checkColumnAlignment(page(AMOUNTS.map((a, i) => cell(a, 400, 100 + i * 14))));
    expect(result.evidence).toEqual([]);
  });

  test("a centred column is not accused either", () => {
    const result = checkColumnAlignment(page(AMOUNTS.map((a, i) => cell(a, 420 - (a.length * 4.5) / 2, 100 + i * 14))));
    expect(result.evidence).toEqual([]);
  });

  test("a totals block below the table with an edge of its own is not accused", () => {
    const table = AMOUNTS.map((a, i) => cell(a, 420 - a.length * 4.5, 100 + i * 14));
    const totals = ["3,513.65", "1,250.00"].map((a, i) => cell(a, 417 - a.length * 4.5, 240 + i * 14));
    expect(checkColumnAlignment(page([...table, ...totals])).evidence).toEqual([]);
  });

  test("a page without amounts, or with too few to make a column, cannot be judged", () => {
    expect(checkColumnAlignment(page([cell("Dear customer,", 72, 100)])).coverage).toBe(0);
    expect(
      checkColumnAlignment(page(["54.20", "7.15", "812.40"].map((a, i) => cell(a, 420 - a.length * 4.5, 100 + i * 14))))
        .coverage,
    ).toBe(0);
    expect(checkColumnAlignment({ pages: [] })).toMatchObject({ evidence: [], coverage: 0 });
  });

  test("OCR lines read with doubt are left out rather than accused", () => {
    const lines = AMOUNTS.map((a, i) => ({
      ...cell(a, 420 - a.length * 4.5, 100 + i * 14),
      source: "ocr" as const,
      confidence: 0.99,
    }));
    lines[3] = { ...lines[3]!, box: [lines[3]!.box[0] + 6, lines[3]!.box[1], lines[3]!.box[2], 12], confidence: 0.8 };
    expect(checkColumnAlignment(page(lines)).evidence).toEqual([]);
  });

  test("a hostile page of a hundred thousand amounts in one column is bounded and answers quickly", () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => cell(i % 2 ? "54.20" : "1,812.40", 400, i * 0.01));
    const started = performance.now();
    const result = checkColumnAlignment(page(lines));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.evidence).toEqual([]);
  });
});
