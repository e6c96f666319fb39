import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import type { AnalysisReport } from "../../../src/analysis/report.ts";
import {
  addAnnotation,
  addOpenActionJavaScript,
  appendPageContent,
  editPdfIncrementally,
  lineRect,
  makePdf,
  STATEMENT_LINES,
  whiteOutAndRetype,
} from "../../helpers/fixtures.ts";

const analyze = (bytes: Uint8Array) => createLocalAnalyzer().analyze({ bytes, format: "pdf" });
const evidenceOf = (report: AnalysisReport, flag: string) => report.evidence.filter((e) => e.flag === flag);

describe("PDFs edited the way forgers edit them", () => {
  test("an incremental save that rewrites page content is pdf_incremental_update", async () => {
    const edited = editPdfIncrementally(makePdf(), (doc) =>
      appendPageContent(doc, 0, "BT /FA 11 Tf 300 600 Td (Paid) Tj ET", { FA: "Helvetica" }),
    );
    const report = await analyze(edited);
    const [e] = evidenceOf(report, "pdf_incremental_update");
    expect(e).toMatchObject({ detector: "pdf-revisions", measured: 1, strength: 0.6 });
    expect(e!.message).toContain("page content");
  });

  test("a JavaScript OpenAction is pdf_active_content", async () => {
    const report = await analyze(addOpenActionJavaScript(makePdf(), "app.alert('hi')"));
    expect(evidenceOf(report, "pdf_active_content")).toEqual([
      expect.objectContaining({ detector: "pdf-active-content", measured: "JavaScript" }),
    ]);
  });

  test("a FreeText annotation laid over a balance is pdf_annotation_overlay, with page and box", async () => {
    const report = await analyze(
      addAnnotation(makePdf(), { type: "FreeText", rect: lineRect(8), contents: "9,999.00" }),
    );
    const [e] = evidenceOf(report, "pdf_annotation_overlay");
    expect(e).toMatchObject({ page: 1, threshold: 0.3 });
    expect(e!.box).toEqual([70, 214, 202, 16]);
    expect(report.flags).toContain("pdf_incremental_update");
  });

  test("a filled Square over text is pdf_annotation_overlay too", async () => {
    const report = await analyze(addAnnotation(makePdf(), { type: "Square", rect: lineRect(4) }));
    expect(evidenceOf(report, "pdf_annotation_overlay")).toHaveLength(1);
  });

  test("an annotation in the margin covers nothing and raises no overlay", async () => {
    const report = await analyze(
      addAnnotation(makePdf(), { type: "FreeText", rect: [400, 700, 550, 720], contents: "ok" }),
    );
    expect(evidenceOf(report, "pdf_annotation_overlay")).toEqual([]);
  });

  test("a white rectangle with new text over the old text is pdf_text_overlay", async () => {
    const report = await analyze(whiteOutAndRetype(makePdf(), 8, "Closing balance 9,513.65"));
    const [e] = evidenceOf(report, "pdf_text_overlay");
    expect(e).toMatchObject({ page: 1, strength: 0.85, threshold: 3 });
    expect(e!.message).toContain("different characters typed on top");
    // One white-out, found by the structure alone: suspicious, at the line's edge (the
    // committed fusion weighs pdf_text_overlay by how often it fires on genuine documents).
    expect(report.forgeryScore).toBeGreaterThanOrEqual(0.45);
    expect(report.flags).toContain("pdf_text_overlay");
  });

  test("the same text drawn again over its white background is a weak overlay, not a replacement", async () => {
    const report = await analyze(whiteOutAndRetype(makePdf(), 8, STATEMENT_LINES[8] as string));
    const [e] = evidenceOf(report, "pdf_text_overlay");
    expect(e).toMatchObject({ strength: 0.45 });
    expect(e!.message).toContain("the same");
  });

  test("a cell border drawn after the text as one framed path hides nothing", async () => {
    // An outer and an inner rectangle in one white fill: a frame around line 8, the way
    // office suites draw table borders after the cell's text.
    const y = 760 - 8 * 18;
    const frame = `q 1 1 1 rg 68 ${y - 6} 270 18 re 69 ${y - 5} 268 16 re f* Q`;
    const report = await analyze(editPdfIncrementally(makePdf(), (doc) => appendPageContent(doc, 0, frame, {})));
    expect(evidenceOf(report, "pdf_text_overlay")).toEqual([]);
  });

  test("a white fill clipped away from the text hides nothing", async () => {
    const y = 760 - 8 * 18;
    const clipped = `q 400 700 100 50 re W n 1 1 1 rg 68 ${y - 6} 270 18 re f Q`;
    const report = await analyze(editPdfIncrementally(makePdf(), (doc) => appendPageContent(doc, 0, clipped, {})));
    expect(evidenceOf(report, "pdf_text_overlay")).toEqual([]);
  });

  test("new digits painted straight over old ones are pdf_text_overlay", async () => {
    const edited = editPdfIncrementally(makePdf(), (doc) =>
      appendPageContent(doc, 0, `BT /FO 11 Tf 72 616 Td (Closing balance 9,999.99) Tj ET`, { FO: "Helvetica" }),
    );
    const report = await analyze(edited);
    expect(evidenceOf(report, "pdf_text_overlay")[0]!.message).toContain("overprinted");
  });

  test("glyphs stacked on one spot (a tick drawn over a box) are not an overprinted value", async () => {
    const edited = editPdfIncrementally(makePdf(), (doc) =>
      appendPageContent(
        doc,
        0,
        `BT /FO 11 Tf 72 616 Td (X) Tj ET BT /FO 11 Tf 72 616 Td (Y) Tj ET BT /FO 11 Tf 72 616 Td (Z) Tj ET`,
        { FO: "Helvetica" },
      ),
    );
    const report = await analyze(edited);
    expect(evidenceOf(report, "pdf_text_overlay")).toEqual([]);
  });

  test("one line of figures in a font used nowhere else is pdf_font_inconsistency", async () => {
    const lines = [...STATEMENT_LINES];
    lines[6] = { text: "10/03 Salary +9,400.00", font: "Times-Roman" };
    const report = await analyze(makePdf({ lines }));
    const [e] = evidenceOf(report, "pdf_font_inconsistency");
    expect(e).toMatchObject({ page: 1, measured: "Times-Roman", threshold: "Helvetica" });
    expect(report.flags).toEqual(["pdf_font_inconsistency"]);
  });

  test("a title in its own font without figures is not an inconsistency", async () => {
    const lines = [...STATEMENT_LINES];
    lines[0] = { text: "First Example Bank plc", font: "Times-Bold" };
    const report = await analyze(makePdf({ lines }));
    expect(report.flags).toEqual([]);
  });

  test("a PDF editor as producer over a generator's creator is editing_software", async () => {
    const report = await analyze(makePdf({ producer: "Sejda PDF Editor 7.0", creator: "wkhtmltopdf 0.12.6" }));
    const [e] = evidenceOf(report, "editing_software");
    expect(e).toMatchObject({ detector: "pdf-metadata", measured: "Sejda PDF Editor 7.0" });
    expect(e!.strength).toBeCloseTo(0.6);
  });

  test("a modification date before the creation date is metadata_inconsistent", async () => {
    const report = await analyze(makePdf({ creationDate: "D:20240401080000Z", modDate: "D:20240301080000Z" }));
    expect(evidenceOf(report, "metadata_inconsistent")).toHaveLength(1);
  });
});

describe("figures pasted into an existing line", () => {
  test("digits in another font at the end of a line are pdf_font_inconsistency", async () => {
    // Line 6 ("10/03 Salary +2,400.00") has its baseline at y=652 and ends near x=190.
    const edited = editPdfIncrementally(makePdf(), (doc) =>
      appendPageContent(doc, 0, "BT /FT 11 Tf 192 652 Td (0) Tj ET", { FT: "Times-Roman" }),
    );
    const report = await analyze(edited);
    const [e] = evidenceOf(report, "pdf_font_inconsistency");
    expect(e).toMatchObject({ measured: "Times-Roman", threshold: "Helvetica" });
    expect(e!.message).toStartWith("Digits set in Times-Roman inside a line");
  });
});
