// The page as the forensic graph takes it: cropped to whole JPEG blocks from the top-left
// (so the block grid stays aligned with the grid any JPEG encoder used), and its
// re-encoding at a fixed quality for error-level analysis.
import sharp from "sharp";
import { BLOCK } from "./graph-spec.ts";

/**
 * Error-level analysis re-encodes at the quality the page was last saved with when its JPEG
 * tables say so (measured: a region saved once at that quality then differs from one saved
 * twice, while re-encoding at a fixed 90 showed nothing on text pages), else at this one.
 */
export const DEFAULT_ELA_QUALITY = 90;

export interface Prepared {
  rgb: Uint8Array;
  recompressed: Uint8Array;
  width: number;
  height: number;
}

export async function prepare(rgb: Uint8Array, width: number, height: number, quality: number): Promise<Prepared> {
  const w = width - (width % BLOCK);
  const h = height - (height % BLOCK);
  const cropped = w === width ? rgb.subarray(0, w * h * 3) : cropRows(rgb, width, w, h);
  const raw = { width: w, height: h, channels: 3 as const };
  // Pixels are already decoded and bounded by the caller; sharp's own limit would only refuse them.
  const jpeg = await sharp(cropped, { raw, limitInputPixels: false }).jpeg({ quality }).toBuffer();
  const decoded = await sharp(jpeg, { limitInputPixels: false }).raw().toBuffer();
  return { rgb: cropped, recompressed: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength), width: w, height: h };
}

function cropRows(rgb: Uint8Array, width: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) out.set(rgb.subarray(y * width * 3, (y * width + w) * 3), y * w * 3);
  return out;
}
