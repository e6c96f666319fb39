// mupdf's pixmaps pad each row to a stride; everything downstream (sharp, the OCR and
// forensics tensors, fingerprints) wants tightly packed RGB. Only the pixmap's methods are
// used, so callers that must load mupdf late (worker threads) can import this freely.
import type { Pixmap } from "mupdf";

export interface PackedRgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The RGB pixels of a pixmap rendered without alpha, packed row after row. */
export function packPixmap(pixmap: Pixmap): PackedRgb {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width * 3), y * width * 3);
  return { data, width, height };
}
