// Sums of a per-block map over rectangles of blocks in O(1) (summed-area table), so every
// OCR line and every tile is summarised without touching pixels again.
import type { Box } from "./types.ts";

export class BlockSums {
  private readonly table: Float64Array;

  constructor(
    readonly cols: number,
    readonly rows: number,
    values: ArrayLike<number>,
  ) {
    const w = cols + 1;
    this.table = new Float64Array(w * (rows + 1));
    for (let y = 0; y < rows; y++) {
      let rowSum = 0;
      for (let x = 0; x < cols; x++) {
        rowSum += values[y * cols + x]!;
        this.table[(y + 1) * w + x + 1] = this.table[y * w + x + 1]! + rowSum;
      }
    }
  }

  /** Sum over blocks x0 <= x < x1, y0 <= y < y1 (clipped to the map). */
  sum(x0: number, y0: number, x1: number, y1: number): number {
    const w = this.cols + 1;
    const ax = Math.max(0, Math.min(this.cols, x0));
    const bx = Math.max(0, Math.min(this.cols, x1));
    const ay = Math.max(0, Math.min(this.rows, y0));
    const by = Math.max(0, Math.min(this.rows, y1));
    if (bx <= ax || by <= ay) return 0;
    const t = this.table;
    return t[by * w + bx]! - t[ay * w + bx]! - t[by * w + ax]! + t[ay * w + ax]!;
  }
}

/** The blocks a pixel box mostly covers: those whose centre lies inside it. */
export function boxToBlocks([x, y, w, h]: Box, block: number): [number, number, number, number] {
  return [Math.round(x / block), Math.round(y / block), Math.round((x + w) / block), Math.round((y + h) / block)];
}
