// Where an identity document's portrait is, found on the forensic graph's per-block edge map
// and the OCR lines: the portrait-shaped area (taller than wide, as ICAO 9303's 35 x 45 mm
// photo) that no text line crosses and that holds the most texture, trimmed to the photograph.
// The same search as the API's reused-portrait locator (src/analysis/content/portrait-area.ts),
// on the sidecar's blocks so that no pixel is read again. Real documents come with no template,
// and a document's portrait is by design its largest area without text.
import { bestArea, integral, trimmed } from "../../src/analysis/content/portrait-area.ts";
import type { Box } from "../forensics/types.ts";

/** Cells at most this many across or down: bounds the area search on any page. */
const MAX_CELLS = 64;
/**
 * A block whose mean |gradient| reaches this shows something (as the forensics' textured blocks).
 */
export const TEXTURED_EDGE = 8;

/** The portrait as [col, row, cols, rows] in blocks, or null where no area qualifies. */
export function locatePortraitBlocks(
  edge: ArrayLike<number>,
  cols: number,
  rows: number,
  lines: Box[],
  block: number,
): Box | null {
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
  const found = bestArea(gc, gr, busyCount, textCount, "narrowest");
  if (!found) return null;
  const [c, r, w, h] = trimmed(busyCount, found);
  return [c * k, r * k, w * k, h * k];
}
