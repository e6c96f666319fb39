import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { editPdfIncrementally, makePdf, xmpPacket } from "../../helpers/fixtures.ts";

const analyze = (bytes: Uint8Array) => createLocalAnalyzer().analyze({ bytes, format: "pdf" });

describe("PDFs with benign histories", () => {
  test("a clean single-generation statement has no flags, a low score and no low confidence", async () => {
    const report = await analyze(makePdf());
    expect(report.flags).toEqual([]);
    expect(report.evidence).toEqual([]);
    // Without a flag the trained fusion gives only its prior, far under the verdict line: the
    // share of out-of-family forgeries that raise no flag (0.15 since the corpus holds the
    // manipulated families, whose swapped portraits raise none).
    expect(report.forgeryScore).toBeLessThan(0.16);
    // High only where out-of-family verdicts were right 95% of the time: flag-free scores sit
    // beside pixel forgeries the detectors miss, so a clean page is medium (model.json margins).
    expect(report.confidence).not.toBe("low");
    expect(report.documentType).toBe("financial");
    expect(report.pages).toBe(1);
  });

  test("an office-suite PDF with matching XMP is not accused", async () => {
    const xmp = xmpPacket({
      "xmp:CreatorTool": "Writer",
      "pdf:Producer": "LibreOffice 7.6",
      "xmp:CreateDate": "2024-04-01T08:00:00Z",
    });
    const report = await analyze(makePdf({ producer: "LibreOffice 7.6", creator: "Writer", xmp }));
    expect(report.flags).toEqual([]);
  });

  test("a viewer re-saving only the metadata incrementally is recorded but not flagged", async () => {
    const resaved = editPdfIncrementally(makePdf(), (doc) => doc.setMetaData("info:Title", "March statement"));
    const report = await analyze(resaved);
    expect(report.flags).toEqual([]);
    const revisions = report.detectors.find((d) => d.detector === "pdf-revisions")!;
    expect(revisions.facts).toMatchObject({ updates: 1, benign: true });
  });

  test("every page of a multi-page document is read, and its text feeds the document type", async () => {
    const report = await analyze(makePdf({ pages: 3 }));
    expect(report.pages).toBe(3);
    const fonts = report.detectors.find((d) => d.detector === "pdf-fonts")!;
    expect(fonts.facts.textLines).toBe(27);
  });

  test("pages past the page limit lower the coverage of the page detectors", async () => {
    const report = await createLocalAnalyzer({ limits: { maxPdfPages: 2 } }).analyze({
      bytes: makePdf({ pages: 4 }),
      format: "pdf",
    });
    expect(report.detectors.find((d) => d.detector === "pdf-fonts")!.coverage).toBe(0.5);
    expect(report.confidence).not.toBe("high");
  });
});

describe("Acrobat Pro as producer", () => {
  test("a PDF Acrobat Pro wrote itself is not accused", async () => {
    const report = await analyze(
      makePdf({ producer: "Adobe Acrobat Pro (64-bit) 23.8", creator: "Adobe Acrobat Pro (64-bit) 23.8" }),
    );
    expect(report.flags).toEqual([]);
  });

  test("a generator's PDF saved again by Acrobat Pro is weak editing_software evidence", async () => {
    const report = await analyze(
      makePdf({ producer: "Adobe Acrobat Pro (64-bit) 23.8", creator: "JasperReports Library" }),
    );
    expect(report.evidence.map((e) => [e.flag, e.strength])).toEqual([["editing_software", 0.4]]);
  });
});
