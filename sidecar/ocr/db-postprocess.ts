// DB (Differentiable Binarization) post-processing as PaddleOCR's DBPostProcess does it with
// its defaults for PP-OCRv4: binarize the probability map, take each 8-connected text
// region, fit the minimum-area rotated rectangle, score it by the mean probability inside,
// grow it back ("unclip") and drop boxes that are too small or too faint. One step PaddleOCR
// lacks: a region that is two touching lines is cut in two first (stacked-lines.ts).
import { clamp } from "../../src/numeric.ts";
import { type Quad, minAreaRect, orderQuad, rectCorners, unclipRect } from "./geometry.ts";
import { type RegionRow, hullPoints, splitStackedLines, typicalLineHeight } from "./stacked-lines.ts";

export interface DbOptions {
  /** Pixel probability above which a pixel is text. */
  threshold: number;
  /** Minimum mean probability inside a box. */
  boxThreshold: number;
  unclipRatio: number;
  /** Upper bound on regions examined per map: noise cannot make the work unbounded. */
  maxCandidates: number;
}

export const DB_DEFAULTS: DbOptions = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, maxCandidates: 1000 };

const MIN_SIDE = 3;

export interface ScoredQuad {
  quad: Quad;
  score: number;
}

/** Boxes in probability-map coordinates. */
export function dbBoxes(
  prob: Float32Array,
  width: number,
  height: number,
  options: DbOptions = DB_DEFAULTS,
): ScoredQuad[] {
  const regions = [...textRegions(prob, width, height, options.threshold, options.maxCandidates)];
  const lineHeight = typicalLineHeight(regions);
  const boxes: ScoredQuad[] = [];
  for (const rows of regions.flatMap((region) => splitStackedLines(region, lineHeight))) {
    const rect = minAreaRect(hullPoints(rows));
    if (Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    const kernel = orderQuad(rectCorners(rect));
    const score = meanInside(prob, width, height, kernel);
    if (score < options.boxThreshold) continue;
    const grown = unclipRect(rect, options.unclipRatio);
    if (Math.min(grown.width, grown.height) < MIN_SIDE + 2) continue;
    boxes.push({ quad: orderQuad(rectCorners(grown)), score });
  }
  return boxes;
}

/**
 * Connected regions of pixels above `threshold` (8-connectivity, like the outer contours
 * OpenCV's findContours follows). Each region is returned as its rows, top to bottom; being
 * connected, it has no empty row between its top and bottom.
 */
function* textRegions(
  prob: Float32Array,
  width: number,
  height: number,
  threshold: number,
  maxRegions: number,
): Generator<RegionRow[]> {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let regions = 0;
  for (let start = 0; start < prob.length && regions < maxRegions; start++) {
    if (seen[start] || !(prob[start]! > threshold)) continue;
    regions++;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    let count = 0;
    // Pixels are pushed onto the same buffer: the region's pixels end up in stack[0..count).
    while (count < top) {
      const p = stack[count++]!;
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (!seen[q] && prob[q]! > threshold) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    yield regionRows(stack, count, width);
  }
}

function regionRows(pixels: Int32Array, count: number, width: number): RegionRow[] {
  const rows = new Map<number, RegionRow>();
  for (let i = 0; i < count; i++) {
    const p = pixels[i]!;
    const x = p % width;
    const y = (p - x) / width;
    const row = rows.get(y);
    if (!row) rows.set(y, { y, minX: x, maxX: x, pixels: 1 });
    else {
      row.pixels++;
      if (x < row.minX) row.minX = x;
      else if (x > row.maxX) row.maxX = x;
    }
  }
  return [...rows.values()].sort((a, b) => a.y - b.y);
}

/**
 * PaddleOCR's box_score_fast: mean probability over the pixels the box covers. Each row is
 * scanned only between the box's edges, so a long slanted box costs its area, not its
 * bounding rectangle's.
 */
function meanInside(prob: Float32Array, width: number, height: number, quad: Quad): number {
  const ys = quad.map((p) => p[1]);
  const y0 = clamp(Math.ceil(Math.min(...ys)), 0, height - 1);
  const y1 = clamp(Math.floor(Math.max(...ys)), 0, height - 1);
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++) {
    const span = rowSpan(quad, y);
    if (!span) continue;
    const x0 = clamp(Math.ceil(span[0]), 0, width - 1);
    const x1 = clamp(Math.floor(span[1]), 0, width - 1);
    for (let x = x0; x <= x1; x++) sum += prob[y * width + x]!;
    n += Math.max(0, x1 - x0 + 1);
  }
  return n === 0 ? 0 : sum / n;
}

/** Where the horizontal line at `y` enters and leaves the convex quad. */
function rowSpan(quad: Quad, y: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = quad[i]!;
    const [bx, by] = quad[(i + 1) % 4]!;
    if ((y < ay && y < by) || (y > ay && y > by)) continue;
    const x = ay === by ? Math.min(ax, bx) : ax + ((y - ay) * (bx - ax)) / (by - ay);
    const xEnd = ay === by ? Math.max(ax, bx) : x;
    lo = Math.min(lo, x);
    hi = Math.max(hi, xEnd);
  }
  return lo <= hi ? [lo, hi] : null;
}
