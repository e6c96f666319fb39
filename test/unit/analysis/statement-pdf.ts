// A small bank statement as a report generator writes one with pdf-lib (hex Tj strings in
// upper case, amounts right-aligned in their columns), and the in-place rewrite a forger
// makes of one amount: the string inside its text operator replaced, the file re-saved.
import * as mupdf from "mupdf";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/** Date, description, amount, balance: widths differ within each column. */
const STATEMENT_ROWS: [string, string, string, string][] = [
  ["01/03", "Opening balance", "", "1,250.00"],
  ["03/03", "Grocery store", "54.20", "1,195.80"],
  ["05/03", "Pharmacy", "7.15", "1,188.65"],
  ["10/03", "Salary", "2,400.00", "3,588.65"],
  ["12/03", "Rent", "812.40", "2,776.25"],
  ["14/03", "Bakery", "3.90", "2,772.35"],
  ["18/03", "Electricity", "82.15", "2,690.20"],
  ["21/03", "Restaurant", "46.80", "2,643.40"],
  ["24/03", "Insurance", "129.99", "2,513.41"],
  ["27/03", "Refund", "15.00", "2,528.41"],
  ["29/03", "Fuel", "61.35", "2,467.06"],
  ["31/03", "Closing balance", "", "2,467.06"],
];

/** Right edges of the amount and balance columns, points from the left. */
const AMOUNT_RIGHT = 420;
const BALANCE_RIGHT = 520;
const SIZE = 9;
const TOP = 760;
const LEADING = 14;

export async function statementPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  page.drawText("ACCOUNT STATEMENT", { x: 72, y: 800, size: 14, font: bold, color: rgb(0.1, 0.1, 0.1) });
  STATEMENT_ROWS.forEach(([date, label, amount, balance], i) => {
    const y = TOP - i * LEADING;
    page.drawText(date, { x: 72, y, size: SIZE, font });
    page.drawText(label, { x: 130, y, size: SIZE, font });
    if (amount) page.drawText(amount, { x: AMOUNT_RIGHT - font.widthOfTextAtSize(amount, SIZE), y, size: SIZE, font });
    page.drawText(balance, { x: BALANCE_RIGHT - font.widthOfTextAtSize(balance, SIZE), y, size: SIZE, font });
  });
  return pdf.save({ useObjectStreams: false });
}

const hex = (s: string) => Buffer.from(s, "latin1").toString("hex");

/**
 * Replaces the string of every operator that shows `from` with `to`, written as a string
 * editor writes it (lower-case hex), keeping the operator's position; re-saved by mupdf.
 */
export function rewriteShownString(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf") as mupdf.PDFDocument;
  const contents = doc.loadPage(0).getObject().get("Contents");
  const streams = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents];
  let replaced = 0;
  for (const stream of streams) {
    const text = stream.readStream().asString();
    const out = text.replaceAll(`<${hex(from).toUpperCase()}> Tj`, () => {
      replaced++;
      return `<${hex(to)}> Tj`;
    });
    if (out !== text) stream.writeStream(new mupdf.Buffer(out));
  }
  if (replaced === 0) throw new Error("string not shown on the page");
  return doc.saveToBuffer("garbage=compact,compress").asUint8Array().slice();
}
