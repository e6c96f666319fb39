// Which PDF pages are drawn (text and paths) and which are pictures (a scan or photo wrapped
// in a PDF): pixel forensics judge only the pictures (full-analyzer.ts onPictures).
import { describe, expect, test } from "bun:test";
import { inspectDocument } from "../../../src/analysis/analyze.ts";
import { DEFAULT_LIMITS } from "../../../src/analysis/detector.ts";
import { mupdf } from "../../../src/pdf/mupdf.ts";
import { makePdf, makePng } from "../../helpers/fixtures.ts";

/** A PDF of two pages: a scan filling page 1 (image share `cover`), then a drawn page. */
async function scanThenDrawn(cover: number): Promise<Uint8Array> {
  const doc = new mupdf.PDFDocument();
  const image = doc.addImage(new mupdf.Image(await makePng({ width: 400, height: 560 })));
  const [w, h] = [595, 842];
  const scan = `q ${w * cover} 0 0 ${h} 0 0 cm /Im0 Do Q`;
  doc.insertPage(-1, doc.addPage([0, 0, w, h], 0, doc.addObject({ XObject: { Im0: image } }), scan));
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  doc.insertPage(
    -1,
    doc.addPage(
      [0, 0, w, h],
      0,
      doc.addObject({ Font: { F1: font } }),
      "BT /F1 11 Tf 72 760 Td (Closing balance 3,513.65) Tj ET",
    ),
  );
  const out = doc.saveToBuffer("").asUint8Array().slice();
  doc.destroy();
  return out;
}

const drawnPages = async (bytes: Uint8Array) =>
  (await inspectDocument({ bytes, format: "pdf" }, DEFAULT_LIMITS, Date.now)).drawnPages;

describe("drawn and pictured PDF pages", () => {
  test("a statement drawn as text is drawn on every page", async () => {
    expect(await drawnPages(makePdf({ pages: 2 }))).toEqual([0, 1]);
  });

  test("a scan wrapped in a PDF is a picture; the drawn page beside it is not", async () => {
    expect(await drawnPages(await scanThenDrawn(1))).toEqual([1]);
  });

  test("an image over less than half the page (a logo, a signature) leaves the page drawn", async () => {
    expect(await drawnPages(await scanThenDrawn(0.3))).toEqual([0, 1]);
  });

  test("an image has no drawn pages: its pixels are the document", async () => {
    expect(
      await inspectDocument({ bytes: await makePng(), format: "png" }, DEFAULT_LIMITS, Date.now).then(
        (i) => i.drawnPages,
      ),
    ).toEqual([]);
  });
});
