import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { startBudget } from "../../../src/analysis/detector.ts";
import { detectTextOperators } from "../../../src/analysis/pdf/text-operators.ts";

const pdfWithContent = (content: string | null): mupdf.PDFDocument => {
  const doc = new mupdf.PDFDocument();
  const resources = doc.addObject({ Font: { F1: doc.addSimpleFont(new mupdf.Font("Helvetica")) } });
  const page = doc.addPage([0, 0, 595, 842], 0, resources, content ?? "");
  if (content === null) page.put("Contents", doc.newInteger(7));
  doc.insertPage(-1, page);
  return mupdf.Document.openDocument(
    doc.saveToBuffer("compress").asUint8Array().slice(),
    "application/pdf",
  ) as mupdf.PDFDocument;
};

describe("text operators of hostile pages", () => {
  test("a page of a hundred thousand interleaved odd operators is read quickly and its evidence bounded", () => {
    const ops = Array.from(
      { length: 100_000 },
      (_, i) => `BT /F1 9 Tf 1 0 0 1 72 ${i % 700} Tm ${i % 7 === 3 ? "<6a6b6c>" : "<4A4B4C>"} Tj ET`,
    );
    const doc = pdfWithContent(ops.join("\n"));
    const started = performance.now();
    const result = detectTextOperators(doc, [], 10, startBudget(20_000));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.evidence).toHaveLength(20);
    expect(result.evidence.at(-1)!.message).toContain("more such strings not listed");
  });

  test("page contents that are no stream at all are judged as a page without text", () => {
    const result = detectTextOperators(pdfWithContent(null), [], 10, startBudget(5_000));
    expect(result).toMatchObject({ evidence: [], coverage: 0 });
  });

  test("an expired time budget stops the reading and lowers coverage", () => {
    const result = detectTextOperators(pdfWithContent("BT (x) Tj ET"), [], 10, { expired: () => true });
    expect(result).toMatchObject({ evidence: [], coverage: 0, facts: { pagesRead: 0 } });
  });
});
