// Finance documents drawn with PDFKit: coloured header band, two-column details, ruled
// table (its header drawn again on each page a long table runs onto), totals as
// right-aligned lines under the table.
import PDFKit from "pdfkit";
import { A4, columnAnchors, type DrawnText, type GeneratedPdf, type PdfInfo } from "./drawn.ts";
import type { FinanceDocument } from "./model.ts";

export async function renderWithPdfKit(doc: FinanceDocument, info: PdfInfo): Promise<GeneratedPdf> {
  // CreationDate is given so PDFKit neither reads the clock nor derives a time-based file ID.
  const kit = new PDFKit({
    size: "A4",
    margin: 0,
    compress: true,
    info: {
      Title: info.title,
      Producer: info.producer,
      Creator: info.creator,
      CreationDate: info.creationDate,
      ModDate: info.creationDate,
      ...(info.author ? { Author: info.author } : {}),
    },
  });
  const chunks: Buffer[] = [];
  kit.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => kit.on("end", () => resolve()));
  const [W] = A4;
  const texts: DrawnText[] = [];
  let page = 0;
  const draw = (
    text: string,
    x: number,
    top: number,
    size: number,
    font: "Helvetica" | "Helvetica-Bold",
    opts: { right?: boolean; field?: string; color?: string } = {},
  ) => {
    if (!text) return;
    kit
      .font(font)
      .fontSize(size)
      .fillColor(opts.color ?? "#1a1a1f");
    const w = kit.widthOfString(text);
    const left = opts.right ? x - w : x;
    kit.text(text, left, top, { lineBreak: false });
    texts.push({
      text,
      field: opts.field,
      page,
      box: { x: left, y: top, w, h: size * 1.15 },
      size,
      baseline: top + size * 0.718,
      alignRight: !!opts.right,
    });
  };

  const M = 36;
  kit.rect(0, 0, W, 64).fill("#0e3b5c");
  doc.issuer.forEach((line, i) => {
    draw(line, M, i === 0 ? 12 : 20 + i * 9, i === 0 ? 13 : 7, i === 0 ? "Helvetica-Bold" : "Helvetica", {
      color: "#ffffff",
    });
  });
  draw(doc.title, W - M, 26, 9, "Helvetica-Bold", { right: true, color: "#ffffff" });
  let y = 86;
  doc.recipient.forEach((line, i) => {
    draw(line, M, y + i * 9.5, 7.5, i === 0 ? "Helvetica-Bold" : "Helvetica");
  });
  doc.meta.forEach(([label, cell], i) => {
    const ty = y + i * 9.5;
    draw(label, 320, ty, 6.5, "Helvetica", { color: "#555560" });
    draw(cell.text, 400, ty, 6.5, "Helvetica-Bold", { field: cell.field });
  });
  y += Math.max(doc.recipient.length, doc.meta.length) * 9.5 + 22;
  const tableW = W - 2 * M;
  const columns = columnAnchors(doc.columns, M, tableW, 2);
  const footer = () =>
    doc.footer.forEach((line, i) => {
      draw(line, M, 800 + i * 8, 5.5, "Helvetica", { color: "#6a6a75" });
    });
  const tableHeader = () => {
    for (const c of columns)
      draw(c.header.toUpperCase(), c.x, y, 6, "Helvetica-Bold", { right: c.right, color: "#0e3b5c" });
    y += 9;
    kit
      .moveTo(M, y)
      .lineTo(W - M, y)
      .lineWidth(0.8)
      .strokeColor("#0e3b5c")
      .stroke();
    y += 3;
  };
  tableHeader();
  doc.rows.forEach((row, r) => {
    if (doc.pageBreaks.includes(r)) {
      footer();
      kit.addPage({ size: "A4", margin: 0 });
      page++;
      y = 48;
      tableHeader();
    }
    row.forEach((cell, i) => {
      const c = columns[i];
      if (c) draw(cell.text, c.x, y, 6, "Helvetica", { right: c.right, field: cell.field });
    });
    y += 9;
    kit
      .moveTo(M, y - 1.5)
      .lineTo(W - M, y - 1.5)
      .lineWidth(0.25)
      .strokeColor("#c8ccd2")
      .stroke();
  });
  y += 10;
  for (const [label, cell] of doc.summary) {
    draw(label, W - M - 190, y, 7, "Helvetica-Bold");
    draw(cell.text, W - M - 2, y, 7, "Helvetica", { right: true, field: cell.field });
    y += 10;
  }
  footer();
  kit.end();
  await done;
  return { bytes: new Uint8Array(Buffer.concat(chunks)), texts, pageSize: A4 };
}
