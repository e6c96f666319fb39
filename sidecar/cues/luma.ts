// The page's luminance as a summed-area table, read once per page and shared by the cues that
// average areas of it: the portrait locator's cells (portrait-locate.ts) and the ghost search's
// grids (portrait-ghost.ts).
import { lumaAt } from "../forensics/graph-spec.ts";

/**
 * Entries the page's table holds, whatever the page's size: the ghost search's smallest grid
 * cell (a grid of at most 40,000 cells over the page, portrait-ghost.ts) then still spans two
 * steps, and the table takes some 1.3 MB rather than eight bytes a pixel.
 */
const TABLE_ENTRIES = 160_000;

/** The page's table, at the step that keeps it to TABLE_ENTRIES. */
export function pageLuma(rgb: Uint8Array, width: number, height: number): LumaTable {
  return new LumaTable(rgb, width, height, Math.max(1, Math.floor(Math.sqrt((width * height) / TABLE_ENTRIES))));
}

/**
 * Summed-area table of the page's luminance, for the mean of any rectangle in constant time, kept
 * at one entry per `step` x `step` pixels (their mean) rather than eight bytes a pixel.
 */
export class LumaTable {
  private readonly sums: Float64Array;
  private readonly cols: number;
  private readonly rows: number;

  constructor(
    rgb: Uint8Array,
    readonly width: number,
    readonly height: number,
    private readonly step: number,
  ) {
    this.cols = Math.floor(width / step);
    this.rows = Math.floor(height / step);
    const stride = this.cols + 1;
    this.sums = new Float64Array(stride * (this.rows + 1));
    for (let r = 0; r < this.rows; r++) {
      let row = 0;
      for (let c = 0; c < this.cols; c++) {
        row += meanLuma(rgb, width, c * step, r * step, (c + 1) * step, (r + 1) * step);
        this.sums[(r + 1) * stride + c + 1] = this.sums[r * stride + c + 1]! + row;
      }
    }
  }

  /** Mean over [x0, x1) x [y0, y1) in page pixels, to the table's step and at least one entry. */
  mean(x0: number, y0: number, x1: number, y1: number): number {
    const { cols, rows, step } = this;
    const stride = cols + 1;
    const xa = Math.max(0, Math.min(cols - 1, Math.round(x0 / step)));
    const ya = Math.max(0, Math.min(rows - 1, Math.round(y0 / step)));
    const xb = Math.max(xa + 1, Math.min(cols, Math.round(x1 / step)));
    const yb = Math.max(ya + 1, Math.min(rows, Math.round(y1 / step)));
    const s = this.sums;
    return (
      (s[yb * stride + xb]! - s[ya * stride + xb]! - s[yb * stride + xa]! + s[ya * stride + xa]!) /
      ((xb - xa) * (yb - ya))
    );
  }

  /** The rectangle as cols x rows cell means. */
  cells(x0: number, y0: number, cell: number, cols: number, rows: number): Float64Array {
    const out = new Float64Array(cols * rows);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        out[r * cols + c] = this.mean(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell);
      }
    }
    return out;
  }
}

/** Mean luminance of the pixels [xa, xb) x [ya, yb) (0 where that holds none). */
export function meanLuma(rgb: Uint8Array, width: number, xa: number, ya: number, xb: number, yb: number): number {
  let sum = 0;
  for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) sum += lumaAt(rgb, (y * width + x) * 3);
  return sum / Math.max(1, (xb - xa) * (yb - ya));
}
