// Finance documents drawn with pdf-lib: letterhead left, recipient in the envelope window,
// grey table header with zebra rows (drawn again on each page a long table runs onto),
// summary box bottom right.
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { A4, columnAnchors, type DrawnText, type GeneratedPdf, type PdfInfo } from "./drawn.ts";
import type { Cell, FinanceDocument } from "./model.ts";

export async function renderWithPdfLib(doc: FinanceDocument, info: PdfInfo): Promise<GeneratedPdf> {
  // updateMetadata:false stops pdf-lib from stamping the wall-clock time; the dates are set below.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(info.title);
  pdf.setProducer(info.producer);
  pdf.setCreator(info.creator);
  if (info.author) pdf.setAuthor(info.author);
  pdf.setCreationDate(info.creationDate);
  pdf.setModificationDate(info.creationDate);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage(A4);
  let pageIndex = 0;
  const [W, H] = A4;
  const texts: DrawnText[] = [];

  const draw = (
    p: PDFPage,
    text: string,
    x: number,
    top: number,
    size: number,
    font: PDFFont,
    opts: { right?: boolean; field?: string; color?: [number, number, number] } = {},
  ) => {
    if (!text) return;
    const w = font.widthOfTextAtSize(text, size);
    const left = opts.right ? x - w : x;
    const baseline = H - top - size * 0.8;
    p.drawText(text, { x: left, y: baseline, size, font, color: rgb(...(opts.color ?? [0.1, 0.1, 0.12])) });
    texts.push({
      text,
      field: opts.field,
      page: pageIndex,
      box: { x: left, y: top, w, h: size },
      size,
      baseline: top + size * 0.8,
      alignRight: !!opts.right,
    });
  };

  const M = 42;
  let y = 40;
  doc.issuer.forEach((line, i) => {
    draw(page, line, M, i === 0 ? y : y + 6 + i * 9, i === 0 ? 12 : 7.5, i === 0 ? bold : regular, {
      color: i === 0 ? [0.05, 0.2, 0.45] : undefined,
    });
  });
  draw(page, doc.title, W - M, y, 10, bold, { right: true });
  y = 120;
  doc.recipient.forEach((line, i) => {
    draw(page, line, 330, y + i * 10, 8, i === 0 ? bold : regular);
  });
  y = 190;
  for (const [label, cell] of doc.meta) {
    draw(page, `${label}:`, M, y, 7, bold);
    draw(page, cell.text, M + 90, y, 7, regular, { field: cell.field });
    y += 10;
  }
  y += 14;
  const tableW = W - 2 * M;
  const columns = columnAnchors(doc.columns, M, tableW, 3);
  const footer = () =>
    doc.footer.forEach((line, i) => {
      draw(page, line, M, H - 52 + i * 9, 5.5, regular, { color: [0.4, 0.4, 0.45] });
    });
  const tableHeader = () => {
    page.drawRectangle({ x: M, y: H - y - 12, width: tableW, height: 12, color: rgb(0.85, 0.87, 0.9) });
    for (const c of columns) draw(page, c.header, c.x, y + 2.5, 7, bold, { right: c.right });
    y += 14;
  };
  tableHeader();
  doc.rows.forEach((row: Cell[], r) => {
    if (doc.pageBreaks.includes(r)) {
      footer();
      page = pdf.addPage(A4);
      pageIndex++;
      y = 60;
      tableHeader();
    }
    if (r % 2 === 1)
      page.drawRectangle({ x: M, y: H - y - 10.5, width: tableW, height: 11, color: rgb(0.96, 0.96, 0.97) });
    row.forEach((cell, i) => {
      const c = columns[i];
      if (!c) return;
      draw(page, cell.text, c.x, y + 1.5, 6.5, regular, { right: c.right, field: cell.field });
    });
    y += 11;
  });
  y += 16;
  const boxX = W - M - 200;
  page.drawRectangle({
    x: boxX,
    y: H - y - doc.summary.length * 12 - 6,
    width: 200,
    height: doc.summary.length * 12 + 8,
    borderColor: rgb(0.6, 0.6, 0.65),
    borderWidth: 0.6,
  });
  for (const [label, cell] of doc.summary) {
    draw(page, label, boxX + 6, y, 7.5, bold);
    draw(page, cell.text, W - M - 6, y, 7.5, regular, { right: true, field: cell.field });
    y += 12;
  }
  footer();
  return { bytes: await pdf.save(), texts, pageSize: A4 };
}
