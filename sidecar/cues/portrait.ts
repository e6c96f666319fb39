// Portrait checks: the portrait, located without a template (portrait-locate.ts), compared
// with the rest of the same card on the forensic graph's per-block maps. A genuine card went
// through one capture as a whole, so its photo carries the same sensor noise, blur and
// compression as its paper and print; a photo pasted in after the capture (a portrait swap)
// brings its own: cleaner or noisier, sharper, compressed otherwise, with a seam where its
// edge meets the card. Every measure is a log2 ratio of the portrait's value to the rest's,
// so 0 is "like the rest of the card" whatever the capture did to both.
import type { ForensicMaps } from "../forensics/graph.ts";
import type { Box } from "../forensics/types.ts";
import { median } from "../../src/numeric.ts";
import { TEXTURED_EDGE, locatePortraitBlocks } from "./portrait-locate.ts";

/** Fewer portrait (or rest-of-card) blocks than these and the comparison says nothing. */
const MIN_INNER_BLOCKS = 24;
const MIN_REST_BLOCKS = 64;
/**
 * Noise floor: this quantile of the block residuals, where flat skin or paper shows the capture's
 * noise alone.
 */
const FLOOR_QUANTILE = 0.25;

export interface PortraitMeasure {
  /** The portrait in page pixels, or null where none was found. */
  box: Box | null;
  innerBlocks: number;
  restBlocks: number;
  /** log2 of the portrait's noise floor over the rest's. */
  noise: number;
  /**
   * log2 of the portrait's sharpness (noise residual per unit gradient, textured blocks) over the
   * rest's.
   */
  sharpness: number;
  /** log2 of the portrait's error level (textured blocks) over the rest's. */
  errorLevel: number;
  /**
   * log2 of the portrait's JPEG blockiness (grid-phase difference over the other phases) over the
   * rest's.
   */
  blockiness: number;
  /** log2 of the sharpness of the ring of blocks across the portrait's edge over the rest's. */
  seam: number;
}

export function measurePortrait(
  maps: Pick<ForensicMaps, "cols" | "rows" | "noise" | "edge" | "ela" | "gridH" | "gridV">,
  lines: Box[],
  block: number,
): PortraitMeasure {
  const { cols, rows } = maps;
  const found = locatePortraitBlocks(maps.edge, cols, rows, lines, block);
  const none: PortraitMeasure = {
    box: null,
    innerBlocks: 0,
    restBlocks: 0,
    noise: 0,
    sharpness: 0,
    errorLevel: 0,
    blockiness: 0,
    seam: 0,
  };
  if (!found) return none;
  const [c, r, w, h] = found;
  const box: Box = [c * block, r * block, w * block, h * block];
  const inner = new Region();
  const ring = new Region();
  const rest = new Region();
  const textBlocks = new Uint8Array(cols * rows);
  for (const [x, y, bw, bh] of lines) {
    for (let by = Math.floor(y / block); by < Math.min(rows, Math.ceil((y + bh) / block)); by++) {
      for (let bx = Math.floor(x / block); bx < Math.min(cols, Math.ceil((x + bw) / block)); bx++)
        if (bx >= 0 && by >= 0) textBlocks[by * cols + bx] = 1;
    }
  }
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const i = by * cols + bx;
      // Distance outside (positive) or inside (negative) the portrait's edge, in blocks.
      const dx = Math.max(c - bx, bx - (c + w - 1));
      const dy = Math.max(r - by, by - (r + h - 1));
      const outside = Math.max(dx, dy);
      const inside = Math.min(bx - c, c + w - 1 - bx, by - r, r + h - 1 - by);
      const target =
        outside > 2 ? rest : outside >= 0 && outside <= 1 ? ring : inside >= 1 ? inner : inside === 0 ? ring : null;
      if (!target || (target !== inner && textBlocks[i])) {
        if (target === rest) rest.addText(maps, i);
        continue;
      }
      target.add(maps, i);
    }
  }
  if (inner.count < MIN_INNER_BLOCKS || rest.count < MIN_REST_BLOCKS)
    return { ...none, box, innerBlocks: inner.count, restBlocks: rest.count };
  const restSharpness = rest.sharpness();
  return {
    box,
    innerBlocks: inner.count,
    restBlocks: rest.count,
    noise: log2Ratio(inner.noiseFloor(), rest.noiseFloor(), 0.05),
    sharpness: log2Ratio(inner.sharpness(), restSharpness, 0.01),
    errorLevel: log2Ratio(inner.errorLevel(), rest.errorLevel(), 0.1),
    blockiness: log2Ratio(inner.blockiness(), rest.blockiness(), 0.01),
    seam: log2Ratio(ring.sharpness(), restSharpness, 0.01),
  };
}

const log2Ratio = (a: number, b: number, floor: number) =>
  Number.isFinite(a) && Number.isFinite(b) ? Math.log2((a + floor) / (b + floor)) : 0;

/** The blocks of one part of the page and what they measure. */
class Region {
  count = 0;
  private readonly noises: number[] = [];
  private readonly ratios: number[] = [];
  private readonly elas: number[] = [];
  private phaseEdge = 0;
  private phaseAll = 0;

  add(maps: Pick<ForensicMaps, "noise" | "edge" | "ela" | "gridH" | "gridV">, i: number): void {
    this.count++;
    this.noises.push(maps.noise[i]!);
    this.addText(maps, i);
    let all = 0;
    for (let p = 0; p < 8; p++) all += maps.gridH[i * 8 + p]! + maps.gridV[i * 8 + p]!;
    this.phaseEdge += maps.gridH[i * 8]! + maps.gridV[i * 8]!;
    this.phaseAll += all;
  }

  /**
   * Text blocks count for sharpness and error level (print is blurred by the same capture) but not
   * for the noise floor.
   */
  addText(maps: Pick<ForensicMaps, "noise" | "edge" | "ela">, i: number): void {
    if (maps.edge[i]! < TEXTURED_EDGE) return;
    this.ratios.push(maps.noise[i]! / maps.edge[i]!);
    this.elas.push(maps.ela[i]!);
  }

  noiseFloor(): number {
    const sorted = Float64Array.from(this.noises).sort();
    return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length * FLOOR_QUANTILE)]!;
  }

  sharpness(): number {
    return median(this.ratios);
  }

  errorLevel(): number {
    return median(this.elas);
  }

  blockiness(): number {
    return this.phaseAll > 0 ? (8 * this.phaseEdge) / this.phaseAll : Number.NaN;
  }
}
