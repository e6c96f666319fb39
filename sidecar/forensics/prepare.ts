// The page as the forensic graph takes it: cropped to whole JPEG blocks from the top-left
// (so the block grid stays aligned with the grid any JPEG encoder used), and the luma
// quantisation table error-level analysis re-encodes it with (inside the graph).
import { BLOCK } from "./graph-spec.ts";
import { ijgTable } from "../../src/jpeg/ijg-quality.ts";

/**
 * Error-level analysis re-encodes at the quality the page was last saved with when its JPEG
 * tables say so (measured: a region saved once at that quality then differs from one saved
 * twice, while re-encoding at a fixed 90 showed nothing on text pages), else at this one.
 */
export const DEFAULT_ELA_QUALITY = 90;

export interface Prepared {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** The IJG luma table at the ELA quality, as libjpeg (and so sharp) writes it. */
  elaSteps: number[];
}

export function prepare(rgb: Uint8Array, width: number, height: number, quality: number): Prepared {
  const w = width - (width % BLOCK);
  const h = height - (height % BLOCK);
  const cropped = w === width ? rgb.subarray(0, w * h * 3) : cropRows(rgb, width, w, h);
  return { rgb: cropped, width: w, height: h, elaSteps: Array.from(ijgTable(quality)) };
}

function cropRows(rgb: Uint8Array, width: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) out.set(rgb.subarray(y * width * 3, (y * width + w) * 3), y * w * 3);
  return out;
}
