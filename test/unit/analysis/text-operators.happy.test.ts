import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { startBudget } from "../../../src/analysis/detector.ts";
import { detectTextOperators, PDF_TEXT_OPERATORS_DETECTOR } from "../../../src/analysis/pdf/text-operators.ts";
import { readPages, toDocumentTextPages } from "../../../src/analysis/pdf/page-content.ts";
import { rewriteShownString, statementPdf } from "./statement-pdf.ts";

const detect = (bytes: Uint8Array) => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
  const budget = startBudget(10_000);
  const pages = readPages(doc, doc.countPages(), 10, budget).pages;
  return { result: detectTextOperators(doc, pages, 10, budget), lines: toDocumentTextPages(pages)[0]!.lines };
};

const hex = (s: string) => Buffer.from(s, "latin1").toString("hex");

/** One page, one Helvetica, one text-showing operator per line (`shows`, e.g. "(Total) Tj"). */
function pageShowing(shows: string[], extraStream?: string): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  const ops = shows.map((show, i) => `q 1 0 0 -1 0 842 cm BT 1 0 0 1 72 ${760 - i * 14} Tm /F1 9 Tf ${show} ET Q`);
  const resources = doc.addObject({ Font: { F1: font } });
  const page = doc.addPage([0, 0, 595, 842], 0, resources, ops.join("\n"));
  if (extraStream) {
    const contents = doc.newArray();
    contents.push(page.get("Contents"));
    contents.push(doc.addStream(extraStream, {}));
    page.put("Contents", contents);
  }
  doc.insertPage(-1, page);
  return doc.saveToBuffer("garbage=compact,compress").asUint8Array().slice();
}

/**
 * A page written the way PDFKit writes text: hex strings in TJ arrays closed by a kerning number.
 */
const pdfkitLikePage = (rows: string[], odd: (row: number) => boolean, extraStream?: string): Uint8Array =>
  pageShowing(
    rows.map((text, i) => (odd(i) ? `[<${hex(text)}>] TJ` : `[<${hex(text)}> 0] TJ`)),
    extraStream,
  );

const ROWS = Array.from({ length: 20 }, (_, i) => `Row ${i + 1} entry ${(i * 37.5).toFixed(2)}`);

describe("strings written by a second hand", () => {
  test("a statement as pdf-lib writes it is judged and left clean", async () => {
    const { result } = detect(await statementPdf());
    expect(result.detector).toBe(PDF_TEXT_OPERATORS_DETECTOR);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
  });

  test("the same statement re-saved by a viewer is still clean", async () => {
    const doc = mupdf.Document.openDocument(await statementPdf(), "application/pdf") as mupdf.PDFDocument;
    const resaved = doc.saveToBuffer("garbage=compact,compress").asUint8Array().slice();
    expect(detect(resaved).result.evidence).toEqual([]);
  });

  test("an amount rewritten in place in lower-case hex is raised at the amount's box, the same width or not", async () => {
    const { result, lines } = detect(rewriteShownString(await statementPdf(), "812.40", "912.40"));
    expect(result.evidence).toHaveLength(1);
    const [e] = result.evidence;
    expect(e).toMatchObject({
      flag: "text_inconsistency",
      detector: PDF_TEXT_OPERATORS_DETECTOR,
      page: 1,
      strength: 0.5,
    });
    expect(e!.box).toEqual(lines.find((l) => l.text === "912.40")!.box);
    expect(e!.message).toContain("letter case");
    expect(e!.message).not.toMatch(/912|812/);
  });

  test("every amount and balance rewritten so the totals still add up is raised for each of them", async () => {
    let bytes = await statementPdf();
    for (const [from, to] of [
      ["812.40", "312.40"],
      ["2,776.25", "3,276.25"],
      ["2,772.35", "3,272.35"],
    ] as const)
      bytes = rewriteShownString(bytes, from, to);
    expect(detect(bytes).result.evidence).toHaveLength(3);
  });

  test("a TJ array without the closing kerning number the page's other arrays carry is raised", () => {
    const { result } = detect(pdfkitLikePage(ROWS, (i) => i === 7));
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]!.message).toContain("TJ array");
  });

  test("PDFKit's own arrays, all closed alike, are clean", () => {
    expect(detect(pdfkitLikePage(ROWS, () => false)).result).toMatchObject({ evidence: [], coverage: 1 });
  });

  test("arrays that end with a string, a few with a kern after their last glyph, are clean (WeasyPrint's way)", () => {
    const page = pageShowing(
      ROWS.map((text, i) =>
        i % 6 === 3
          ? `[<${hex(text.slice(0, 4))}> 12 <${hex(text.slice(4))}> 9] TJ`
          : `[<${hex(text.slice(0, 4))}> 12 <${hex(text.slice(4))}>] TJ`,
      ),
    );
    expect(detect(page).result).toMatchObject({ evidence: [], coverage: 1 });
  });

  test("a stamp a second tool appended in a stream of its own is not accused", () => {
    const stamp = "BT /F1 20 Tf 300 100 Td (COPY) Tj ET BT /F1 8 Tf 300 80 Td (Printed 2025-03-31) Tj ET";
    expect(detect(pdfkitLikePage(ROWS, () => false, stamp)).result.evidence).toEqual([]);
  });

  test("a page with too few text operators cannot be judged", () => {
    expect(detect(pdfkitLikePage(ROWS.slice(0, 5), (i) => i === 2)).result).toMatchObject({
      evidence: [],
      coverage: 0,
    });
  });

  test("arrays closed half one way, half the other, are no habit and accuse nothing", () => {
    expect(detect(pdfkitLikePage(ROWS, (i) => i % 2 === 0)).result.evidence).toEqual([]);
  });

  test("a writer that shows accented text in hex among literal strings is not accused, an ASCII amount in hex is", () => {
    const shows = ROWS.map((text, i) => (i === 5 ? `<${hex("Caf\u00e9 du march\u00e9")}> Tj` : `(${text}) Tj`));
    expect(detect(pageShowing(shows)).result.evidence).toEqual([]);
    shows[9] = `<${hex("1,250.00").toUpperCase()}> Tj`;
    const { result } = detect(pageShowing(shows));
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]!.message).toContain("string encoding");
  });
});
