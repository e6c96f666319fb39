// JPEG blocking aligned to the 8x8 grid: the page-wide phase profile of clipped pixel
// differences says whether (and where) a JPEG grid is visible; the same profile per line
// says whether a line's strongest phase differs from the page's, as text pasted from an
// image compressed on its own grid would. Clean, well-compressed text pages show almost no
// blocking, so this trace's reliability follows the strength of the page's own grid.
import { boxToBlocks } from "./block-sums.ts";
import type { Box } from "./types.ts";
import type { ForensicMaps } from "./graph.ts";
import { BLOCK } from "./graph-spec.ts";
import { robustZ } from "../../src/numeric.ts";
import { MIN_SPREAD } from "./line-traces.ts";

export interface GridSummary {
  /** Phase (x mod 8, y mod 8) where differences peak across the page. */
  phaseX: number;
  phaseY: number;
  /** Peak over the mean of the other phases, minus 1; ~0 without visible blocking. */
  strength: number;
  /** Per line: robust z of (best off-page-phase peak / page-phase value), null when too small. */
  lines: (number | null)[];
}

export function gridSummary(maps: ForensicMaps, boxes: Box[]): GridSummary {
  const px = profile(maps.gridH, 0, 0, maps.cols, maps.rows, maps.cols);
  const py = profile(maps.gridV, 0, 0, maps.cols, maps.rows, maps.cols);
  const [phaseX, strengthX] = peak(px);
  const [phaseY, strengthY] = peak(py);
  const values = boxes.map((box) => {
    const [x0, y0, x1, y1] = boxToBlocks(box, BLOCK);
    if ((x1 - x0) * (y1 - y0) < 4) return null;
    const lx = profile(maps.gridH, x0, y0, x1, y1, maps.cols);
    const ly = profile(maps.gridV, x0, y0, x1, y1, maps.cols);
    return misalignment(lx, phaseX) + misalignment(ly, phaseY);
  });
  const present = values.filter((v): v is number => v !== null);
  const z = present.length >= 3 ? robustZ(present, MIN_SPREAD) : present.map(() => 0);
  let i = 0;
  return {
    phaseX,
    phaseY,
    strength: (strengthX + strengthY) / 2,
    lines: values.map((v) => (v === null ? null : z[i++]!)),
  };
}

function profile(map: Float32Array, x0: number, y0: number, x1: number, y1: number, cols: number): Float64Array {
  const out = new Float64Array(BLOCK);
  for (let y = Math.max(0, y0); y < y1; y++) {
    for (let x = Math.max(0, x0); x < Math.min(cols, x1); x++) {
      const at = (y * cols + x) * BLOCK;
      for (let k = 0; k < BLOCK; k++) out[k] = out[k]! + map[at + k]!;
    }
  }
  return out;
}

function peak(p: Float64Array): [number, number] {
  let best = 0;
  for (let k = 1; k < BLOCK; k++) if (p[k]! > p[best]!) best = k;
  const others = (p.reduce((s, v) => s + v, 0) - p[best]!) / (BLOCK - 1);
  return [best, others > 0 ? p[best]! / others - 1 : 0];
}

function misalignment(p: Float64Array, pagePhase: number): number {
  let best = 0;
  for (let k = 0; k < BLOCK; k++) if (k !== pagePhase) best = Math.max(best, p[k]!);
  return Math.log((best + 1e-3) / (p[pagePhase]! + 1e-3));
}
