import { describe, expect, test } from "bun:test";
import { detectFontInconsistency } from "../../../src/analysis/pdf/fonts.ts";
import type { PageContent, PageLine } from "../../../src/analysis/pdf/page-content.ts";

const line = (text: string, y: number, font = "AAAAAA+NotoSans-Regular"): PageLine => ({
  box: [72, y, 300, 12],
  text,
  runs: [{ font, size: 10, text }],
});

const page = (lines: PageLine[], resourceFonts: string[]): PageContent => ({
  page: 1,
  width: 595,
  height: 842,
  lines,
  glyphs: [],
  fills: [],
  annotations: [],
  resourceFonts,
  invisibleFonts: [],
  truncated: false,
});

describe("fonts of a page", () => {
  test("several subsets of one font, as Chromium embeds them, are listed and accuse no one", () => {
    const lines = ["Payslip March 2025", "Gross pay 3,200.00", "Tax 640.00", "Net pay 2,560.00"].map((t, i) =>
      line(t, 100 + i * 20),
    );
    const result = detectFontInconsistency([
      page(lines, ["AAAAAA+NotoSans-Regular", "BAAAAA+NotoSans-Regular", "CAAAAA+NotoSans-Bold"]),
    ]);
    expect(result.evidence).toEqual([]);
    expect(result.facts.repeatedSubsets).toEqual({ 1: { "NotoSans-Regular": 2 } });
  });

  test("a figure line in a font no other line uses, between lines in the page's font, is raised", () => {
    const lines = [
      line("Opening balance 1,000.00", 100),
      line("Salary 2,400.00", 120),
      line("Rent 1,200.00", 140, "Arial-BoldMT"),
      line("Energy 64.99", 160),
      line("Closing balance 2,135.01", 180),
    ];
    const result = detectFontInconsistency([page(lines, ["AAAAAA+NotoSans-Regular", "Arial-BoldMT"])]);
    expect(result.evidence.map((e) => e.flag)).toEqual(["pdf_font_inconsistency"]);
  });
});
