import { describe, expect, test } from "bun:test";
import { detectFontInconsistency, fontFamily } from "../../../src/analysis/pdf/fonts.ts";
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
  unembeddedFonts: resourceFonts.filter((f) => !/^[A-Z]{6}\+/.test(f)),
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

  /** A row whose label is in `labelFont` and whose figure is in `figureFont`. */
  const mixed = (label: string, figure: string, y: number, labelFont: string, figureFont: string): PageLine => ({
    box: [72, y, 300, 12],
    text: `${label} ${figure}`,
    runs: [
      { font: labelFont, size: 10, text: `${label} ` },
      { font: figureFont, size: 10, text: figure },
    ],
  });
  const rows = (fonts: string[]) => [
    line("Statement of account", 80, fonts[0]),
    ...fonts.map((font, i) => line(`Reference ${i}`, 100 + i * 20, font)),
    mixed("Amount due", "1,234.56", 300, fonts[0]!, "ZZZZZZ+CourierNewPS-BoldMT"),
  ];

  test("digits in another family inside a line are raised on a page set in a few families", () => {
    const fonts = ["AAAAAA+NotoSans-Regular", "BAAAAA+NotoSans-Bold"];
    const result = detectFontInconsistency([page(rows(fonts), fonts)]);
    expect(result.evidence.map((e) => e.message)).toEqual([
      "Digits set in ZZZZZZ+CourierNewPS-BoldMT inside a line set in AAAAAA+NotoSans-Regular",
    ]);
    expect(result.coverage).toBe(1);
  });

  test("a page set in more than five families mixes fonts by design: not judged, and says so", () => {
    const fonts = [
      "*Tahoma-26506-Identity-H",
      "Verdana",
      "Calibri",
      "Georgia",
      "*Microsoft Sans Serif-26497",
      "Garamond",
    ];
    const result = detectFontInconsistency([page(rows(fonts), fonts)]);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(0);
    expect(result.facts).toMatchObject({ mixedFontPages: [1] });
  });

  test("one family whatever its producer calls each face", () => {
    const names = (list: string[]) => [...new Set(list.map(fontFamily))];
    expect(names(["*Tahoma-26506-Identity-H", "*Tahoma-Bold-26507-Identity-H", "ABCDEF+Tahoma"])).toEqual(["tahoma"]);
    expect(names(["ArialMT", "Arial-ItalicMT", "Arial-BoldMT", "BAAAAA+Arial,Bold"])).toEqual(["arial"]);
    expect(names(["HelveticaNeueLT Std Lt Cn", "HelveticaNeueLTStd-Md", "HelveticaNeue"])).toEqual(["helveticaneue"]);
    expect(names(["AAAABD+OpenSansSemibold", "OpenSans-Regular"])).toEqual(["opensans"]);
    expect(names(["TimesNewRomanPS-BoldMT", "Times New Roman"])).toEqual(["timesnewroman"]);
    expect(names(["Times-Roman", "Times-Bold"])).toEqual(["times"]);
  });

  describe("a value in a font the file does not carry", () => {
    const body = (font: string) =>
      ["Payslip March 2025", "Employee", "Gross pay 3,200.00", "Tax 640.00", "Net pay 2,560.00"].map((t, i) =>
        line(t, 100 + i * 20, font),
      );
    const withValue = (value: string, font: string, lines: PageLine[]) => [
      ...lines.slice(0, 2),
      { ...line(value, 125, font), box: [320, 120, 120, 12] as PageLine["box"] },
      ...lines.slice(2),
    ];

    test("a name retyped in a system font among embedded subsets is raised", () => {
      const lines = withValue("Alice Schneider", "Arial", body("AAAAAA+DejaVuSerif"));
      const result = detectFontInconsistency([page(lines, ["AAAAAA+DejaVuSerif", "Arial"])]);
      expect(result.evidence.map((e) => [e.flag, e.measured])).toEqual([["pdf_font_substitution", "Arial"]]);
    });

    test("a row another detector already raised (text over a white box) is not raised twice", () => {
      const lines = withValue("Alice Schneider", "Arial", body("AAAAAA+DejaVuSerif"));
      const overlay = {
        flag: "pdf_text_overlay" as const,
        detector: "pdf-text-overlay" as const,
        strength: 0.85,
        message: "text drawn over a white box",
        page: 1,
        box: [330, 121, 60, 10] as PageLine["box"],
      };
      expect(detectFontInconsistency([page(lines, ["AAAAAA+DejaVuSerif", "Arial"])], [overlay]).evidence).toEqual([]);
    });

    test("a producer that leaves every font out (pdf-lib's standard fonts) accuses no one", () => {
      const lines = withValue("Alice Schneider", "Helvetica-Bold", body("Helvetica"));
      expect(detectFontInconsistency([page(lines, ["Helvetica", "Helvetica-Bold"])]).evidence).toEqual([]);
    });

    test("a label or a page number in a font left out is no value", () => {
      for (const text of ["Counter", "Page 2 of 3"]) {
        const lines = withValue(text, "Helvetica", body("AAAAAA+OpenSans"));
        expect(detectFontInconsistency([page(lines, ["AAAAAA+OpenSans", "Helvetica"])]).evidence).toEqual([]);
      }
    });
  });
});
