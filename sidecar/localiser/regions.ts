// From the network's cell probabilities to what the proto carries: the page's score (its
// highest cell), the groups of cells at or above the threshold as boxes in page pixels, and a
// small heatmap for display. scripts/models/localiser/metrics.py scores validation pages the
// same way, so the threshold chosen there means the same here.
import { clamp01 } from "../../src/numeric.ts";
import type { CellProbabilities } from "./session.ts";
import { CELL } from "./session.ts";
import type { WorkingImage } from "./working-image.ts";

type Box = [x: number, y: number, width: number, height: number];

export interface LocalisedRegion {
  /** In the page's pixels. */
  box: Box;
  /** The group's highest cell probability. */
  score: number;
  /** Cells in the group. */
  cells: number;
}

const MAX_REGIONS = 4;
const HEATMAP_SIDE = 64;

export interface CellMap {
  /** Cells of the page's own pixels (the padding's cells are left out). */
  cols: number;
  rows: number;
  values: Float32Array;
}

export function pageCells(cells: CellProbabilities, image: WorkingImage): CellMap {
  const cols = Math.min(cells.cols, Math.ceil(image.width / CELL));
  const rows = Math.min(cells.rows, Math.ceil(image.height / CELL));
  const values = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++)
    values.set(cells.probabilities.subarray(r * cells.cols, r * cells.cols + cols), r * cols);
  return { cols, rows, values };
}

export const pageScore = (map: CellMap): number => map.values.reduce((m, v) => Math.max(v, m), 0);

/** 8-connected groups of cells at or above `threshold`, strongest first, boxes in page pixels. */
export function regionsOf(
  map: CellMap,
  threshold: number,
  factor: number,
  pageWidth: number,
  pageHeight: number,
): LocalisedRegion[] {
  const { cols, rows, values } = map;
  const seen = new Uint8Array(cols * rows);
  const regions: LocalisedRegion[] = [];
  const stack: number[] = [];
  for (let start = 0; start < values.length; start++) {
    if (seen[start] || values[start]! < threshold) continue;
    let [c0, r0, c1, r1, score, count] = [cols, rows, -1, -1, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const c = i % cols;
      const r = (i - c) / cols;
      c0 = Math.min(c0, c);
      c1 = Math.max(c1, c);
      r0 = Math.min(r0, r);
      r1 = Math.max(r1, r);
      score = Math.max(score, values[i]!);
      count++;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
          const j = rr * cols + cc;
          if (!seen[j] && values[j]! >= threshold) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    const side = CELL * factor;
    const x = c0 * side;
    const y = r0 * side;
    regions.push({
      box: [x, y, Math.min(pageWidth, (c1 + 1) * side) - x, Math.min(pageHeight, (r1 + 1) * side) - y],
      score,
      cells: count,
    });
  }
  return regions.sort((a, b) => b.score - a.score).slice(0, MAX_REGIONS);
}

/** The cell map max-pooled to at most 64 x 64, 0..255. */
export function heatmapOf(map: CellMap): { width: number; height: number; data: Uint8Array } {
  const step = Math.max(1, Math.ceil(Math.max(map.cols, map.rows) / HEATMAP_SIDE));
  const width = Math.max(1, Math.ceil(map.cols / step));
  const height = Math.max(1, Math.ceil(map.rows / step));
  const data = new Uint8Array(width * height);
  map.values.forEach((v, i) => {
    const c = i % map.cols;
    const cell = Math.floor((i - c) / map.cols / step) * width + Math.floor(c / step);
    data[cell] = Math.max(data[cell]!, Math.round(255 * clamp01(v)));
  });
  return { width, height, data };
}
