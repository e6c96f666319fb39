// The first page of a PDF as a small picture, for the duplicate fingerprint (a 9x8 dHash):
// rendered by mupdf at a low resolution from the document the inspection already opened, in
// its worker and within its time limit; cheap next to the analysis itself.
import { mupdf } from "../../pdf/mupdf.ts";
import type { PageImage } from "../content/page-image.ts";
import { packPixmap } from "../../pdf/pack-pixmap.ts";

/** Long side of the render in pixels: far more than a 9x8 hash needs, little to draw. */
const LONG_SIDE = 256;

export function renderFirstPage(doc: mupdf.PDFDocument, pageCount: number): PageImage | undefined {
  if (pageCount === 0) return undefined;
  const page = doc.loadPage(0);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const scale = LONG_SIDE / Math.max(1, x1 - x0, y1 - y0);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
    try {
      const { data, width, height } = packPixmap(pixmap);
      return { raw: data, width, height, channels: 3 };
    } finally {
      pixmap.destroy();
    }
  } finally {
    page.destroy();
  }
}
