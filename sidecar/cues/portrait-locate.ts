// Where an identity document's portrait is, found on the forensic graph's per-block edge map
// and the OCR lines: the portrait-shaped area (taller than wide, as ICAO 9303's 35 x 45 mm
// photo) that no text line crosses and that holds the most texture, trimmed to the photograph.
// The same rule as the API's reused-portrait locator (src/analysis/content/portrait.ts), on
// the sidecar's blocks so that no pixel is read again. Real documents come with no template,
// and a document's portrait is by design its largest area without text.
import type { Box } from "../forensics/types.ts";

/** Cells at most this many across or down: bounds the area search on any page. */
const MAX_CELLS = 64;
/** A block whose mean |gradient| reaches this shows something (as the forensics' textured blocks). */
export const TEXTURED_EDGE = 8;
const MIN_TALL = 1;
const MAX_TALL = 1.8;
const MIN_HEIGHT_SHARE = 0.15;
const MIN_AREA_SHARE = 0.02;
const MIN_BUSY_SHARE = 0.35;
const EDGE_BUSY_SHARE = 0.2;

/** The portrait as [col, row, cols, rows] in blocks, or null where no area qualifies. */
export function locatePortraitBlocks(edge: ArrayLike<number>, cols: number, rows: number, lines: Box[], block: number): Box | null {
  const k = Math.max(1, Math.ceil(Math.max(cols, rows) / MAX_CELLS));
  const gc = Math.floor(cols / k);
  const gr = Math.floor(rows / k);
  if (gc < 4 || gr < 4) return null;
  const busy = new Uint8Array(gc * gr);
  for (let r = 0; r < gr; r++) {
    for (let c = 0; c < gc; c++) {
      let sum = 0;
      for (let y = r * k; y < (r + 1) * k; y++) for (let x = c * k; x < (c + 1) * k; x++) sum += edge[y * cols + x]!;
      busy[r * gc + c] = sum / (k * k) >= TEXTURED_EDGE ? 1 : 0;
    }
  }
  const text = new Uint8Array(gc * gr);
  const cell = block * k;
  for (const [x, y, w, h] of lines) {
    const c0 = Math.max(0, Math.floor(x / cell) - 1);
    const c1 = Math.min(gc - 1, Math.floor((x + w) / cell) + 1);
    const r0 = Math.max(0, Math.floor(y / cell) - 1);
    const r1 = Math.min(gr - 1, Math.floor((y + h) / cell) + 1);
    for (let r = r0; r <= r1; r++) text.fill(1, r * gc + c0, r * gc + c1 + 1);
  }
  const busyCount = integral(busy, gc, gr);
  const textCount = integral(text, gc, gr);
  const found = bestArea(gc, gr, busyCount, textCount);
  if (!found) return null;
  const [c, r, w, h] = trimmed(busyCount, found);
  return [c * k, r * k, w * k, h * k];
}

type Count = (c: number, r: number, w: number, h: number) => number;

function integral(plane: Uint8Array, cols: number, rows: number): Count {
  const s = new Int32Array((cols + 1) * (rows + 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) s[(r + 1) * (cols + 1) + c + 1] = plane[r * cols + c]! + s[r * (cols + 1) + c + 1]! + s[(r + 1) * (cols + 1) + c]! - s[r * (cols + 1) + c]!;
  }
  const at = (c: number, r: number) => s[r * (cols + 1) + c]!;
  return (c, r, w, h) => at(c + w, r + h) - at(c, r + h) - at(c + w, r) + at(c, r);
}

function bestArea(cols: number, rows: number, busy: Count, text: Count): Box | null {
  const minRows = Math.max(3, Math.ceil(rows * MIN_HEIGHT_SHARE));
  const minCells = cols * rows * MIN_AREA_SHARE;
  let best: Box | null = null;
  let bestBusy = 0;
  for (let r = 0; r + minRows <= rows; r++) {
    for (let h = minRows; r + h <= rows; h++) {
      const minW = Math.ceil(h / MAX_TALL);
      const w = Math.floor(h / MIN_TALL);
      if (w * h < minCells || minW > cols) continue;
      for (let c = 0; c + minW <= cols; c++) {
        const width = Math.min(w, cols - c);
        if (width < minW || text(c, r, minW, h) > 0) continue;
        let free = minW;
        while (free < width && text(c + free, r, 1, h) === 0) free++;
        const count = busy(c, r, free, h);
        if (count > bestBusy && count >= MIN_BUSY_SHARE * free * h) [best, bestBusy] = [[c, r, free, h], count];
      }
    }
  }
  return best;
}

function trimmed(busy: Count, [c, r, w, h]: Box): Box {
  while (w > 1 && busy(c, r, 1, h) < EDGE_BUSY_SHARE * h) [c, w] = [c + 1, w - 1];
  while (w > 1 && busy(c + w - 1, r, 1, h) < EDGE_BUSY_SHARE * h) w--;
  while (h > 1 && busy(c, r, w, 1) < EDGE_BUSY_SHARE * w) [r, h] = [r + 1, h - 1];
  while (h > 1 && busy(c, r + h - 1, w, 1) < EDGE_BUSY_SHARE * w) h--;
  return [c, r, w, h];
}
