import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { editPdfIncrementally, makePdf } from "../../helpers/fixtures.ts";

const analyze = (bytes: Uint8Array) => createLocalAnalyzer().analyze({ bytes, format: "pdf" });

describe("PDF analysis on hostile structures", () => {
  test("an action chain that loops back on itself is followed a bounded number of steps", async () => {
    const looping = editPdfIncrementally(makePdf(), (doc) => {
      const action = doc.addObject({ S: "JavaScript", JS: doc.newString("1") });
      action.put("Next", action);
      doc.getTrailer().get("Root").put("OpenAction", action);
    });
    const report = await analyze(looping);
    expect(report.flags).toContain("pdf_active_content");
  });

  test("a form XObject whose resources contain itself does not recurse without end", async () => {
    const selfish = editPdfIncrementally(makePdf(), (doc) => {
      const form = doc.addStream("", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 1, 1] });
      form.put("Resources", doc.newDictionary());
      form.get("Resources").put("XObject", doc.newDictionary());
      form.get("Resources").get("XObject").put("X1", form);
      doc.findPage(0).get("Resources").put("XObject", doc.newDictionary());
      doc.findPage(0).get("Resources").get("XObject").put("X1", form);
    });
    const report = await analyze(selfish);
    expect(report.detectors.every((d) => !("failed" in d.facts))).toBe(true);
  });

  test("a page drawing more glyphs than the bound is recorded up to the bound", async () => {
    const crowded = editPdfIncrementally(makePdf(), (doc) => {
      const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
      const text =
        "BT /FZ 2 Tf " +
        Array.from(
          { length: 300 },
          (_, i) => `20 ${800 - i * 2.5} Td (${"8".repeat(100)}) Tj -20 ${-(800 - i * 2.5)} Td`,
        ).join(" ") +
        " ET";
      const page = doc.findPage(0);
      page.get("Resources").get("Font").put("FZ", font);
      page.put("Contents", doc.addStream(text, {}));
    });
    const report = await analyze(crowded);
    const overlay = report.detectors.find((d) => d.detector === "pdf-text-overlay")!;
    expect(overlay.facts.glyphs).toBe(20_000);
    expect(overlay.facts.truncatedPages).toEqual([1]);
  });

  test("only the first 50 pages of a long document are read, and coverage says so", async () => {
    const report = await analyze(makePdf({ pages: 60, lines: ["Statement page", "Balance 1.00"] }));
    expect(report.pages).toBe(60);
    const fonts = report.detectors.find((d) => d.detector === "pdf-fonts")!;
    expect(fonts.coverage).toBeCloseTo(50 / 60, 5);
    expect(fonts.facts.unreadPages).toBe(10);
  });

  test("no detector puts page text into its facts", async () => {
    const report = await analyze(makePdf({ lines: ["Secret customer name JOHN DOE", "Balance 1,234.56"] }));
    const facts = JSON.stringify(report.detectors.map((d) => d.facts));
    expect(facts).not.toContain("JOHN DOE");
    expect(facts).not.toContain("1,234.56");
  });
});
