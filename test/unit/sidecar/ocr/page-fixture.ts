// Document-like pages made by the tests themselves: a PDF written with mupdf using the
// base-14 fonts (no system fonts needed), rendered back to RGB pixels.
import * as mupdf from "mupdf";
import type { RgbImage } from "../../../../sidecar/image/rgb.ts";

export interface TextLine {
  text: string;
  font: "Helvetica" | "Courier";
  size: number;
  x: number;
  /** Baseline, points from the top of the page. */
  y: number;
  /** Counter-clockwise slant in degrees, as a tilted scan would show it. */
  angle?: number;
}

/** A4 statement-like page whose lines are known, so recognition can be scored against them. */
export const STATEMENT_LINES: TextLine[] = [
  { text: "Northwind Savings Bank", font: "Helvetica", size: 20, x: 60, y: 80 },
  { text: "Account holder: Anna Maria Eriksson", font: "Helvetica", size: 12, x: 60, y: 130 },
  { text: "Statement date: 14 March 2024", font: "Helvetica", size: 12, x: 60, y: 155 },
  { text: "Account number 8841 2290 5531", font: "Helvetica", size: 12, x: 60, y: 180 },
  { text: "Opening balance 2,718.40", font: "Helvetica", size: 12, x: 60, y: 230 },
  { text: "Salary payment ACME Ltd 3,150.00", font: "Helvetica", size: 12, x: 60, y: 255 },
  { text: "Rent transfer 1,850.00", font: "Helvetica", size: 12, x: 60, y: 280 },
  { text: "Closing balance 1,234.56", font: "Helvetica", size: 12, x: 60, y: 305 },
  { text: "01/03/2024 Card payment Tesco Stores -45.20", font: "Helvetica", size: 9, x: 60, y: 330 },
  { text: "IBAN GB29 NWBK 6016 1331 9268 19", font: "Helvetica", size: 9, x: 60, y: 345 },
  { text: "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", font: "Courier", size: 12, x: 60, y: 380 },
  { text: "L898902C36UTO7408122F1204159ZE184226B<<<<<10", font: "Courier", size: 12, x: 60, y: 400 },
];

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

export function renderPage(lines: TextLine[], opts: { dpi: number; widthPt?: number; heightPt?: number }): RgbImage {
  const widthPt = opts.widthPt ?? 595;
  const heightPt = opts.heightPt ?? 842;
  const doc = new mupdf.PDFDocument();
  const fonts = {
    Helvetica: doc.addSimpleFont(new mupdf.Font("Helvetica")),
    Courier: doc.addSimpleFont(new mupdf.Font("Courier")),
  };
  const resources = doc.addObject({ Font: { Helvetica: fonts.Helvetica, Courier: fonts.Courier } });
  const contents = lines
    .map((l) => {
      const a = ((l.angle ?? 0) * Math.PI) / 180;
      const matrix = [Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), l.x, heightPt - l.y].map((v) => v.toFixed(4)).join(" ");
      return `BT /${l.font} ${l.size} Tf ${matrix} Tm (${escapePdf(l.text)}) Tj ET`;
    })
    .join("\n");
  doc.insertPage(-1, doc.addPage([0, 0, widthPt, heightPt], 0, resources, contents));
  const scale = opts.dpi / 72;
  const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width * 3), y * width * 3);
  pixmap.destroy();
  doc.destroy();
  return { data, width, height };
}
