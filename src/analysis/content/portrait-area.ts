// The portrait-area search shared by the API's reused-portrait locator (portrait.ts) and the
// sidecar's portrait cues (sidecar/cues/portrait-locate.ts): each marks its own cells busy
// (grey-level spread here, edge strength on the sidecar's blocks) and text-covered, and both
// then look for the same thing, the portrait-shaped, text-free area holding the most busy
// cells, trimmed to the photograph.
import type { Box } from "../report.ts";

/** Height over width of a portrait area: a photo is 45/35 = 1.29 tall; its frame varies. */
const MIN_TALL = 1;
const MAX_TALL = 1.8;
/**
 * Smallest portrait, as shares of the page's height and area: a licence photo on a whole page scan.
 */
const MIN_HEIGHT_SHARE = 0.15;
const MIN_AREA_SHARE = 0.02;
/** Share of busy cells the area must hold to be a photograph rather than blank card. */
const MIN_BUSY_SHARE = 0.35;
/**
 * Rows and columns at the area's edge with fewer busy cells than this share are frame, not photo.
 */
const EDGE_BUSY_SHARE = 0.2;

/** Busy (or text) cells in the rectangle of cells [c, c + w) x [r, r + h). */
export type Count = (c: number, r: number, w: number, h: number) => number;

/** Sums over [0, r) x [0, c) of a cell plane, for O(1) rectangle counts. */
export function integral(plane: Uint8Array, cols: number, rows: number): Count {
  const s = new Int32Array((cols + 1) * (rows + 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++)
      s[(r + 1) * (cols + 1) + c + 1] =
        plane[r * cols + c]! + s[r * (cols + 1) + c + 1]! + s[(r + 1) * (cols + 1) + c]! - s[r * (cols + 1) + c]!;
  }
  const at = (c: number, r: number) => s[r * (cols + 1) + c]!;
  return (c, r, w, h) => at(c + w, r + h) - at(c, r + h) - at(c + w, r) + at(c, r);
}

/**
 * Which of a band's allowed widths must fit across the page for the band to be searched:
 * the widest (the API's locator, whose tuned results rest on it) or only the narrowest (the
 * sidecar's, which also searches a band whose widest window would run off the page).
 */
export type BandFit = "widest" | "narrowest";

/** The text-free, portrait-shaped rectangle of cells holding the most busy cells. */
export function bestArea(cols: number, rows: number, busy: Count, text: Count, fit: BandFit): Box | null {
  const minRows = Math.max(3, Math.ceil(rows * MIN_HEIGHT_SHARE));
  const minCells = cols * rows * MIN_AREA_SHARE;
  let best: Box | null = null;
  let bestBusy = 0;
  for (let r = 0; r + minRows <= rows; r++) {
    for (let h = minRows; r + h <= rows; h++) {
      const minW = Math.ceil(h / MAX_TALL);
      const w = Math.floor(h / MIN_TALL);
      if (w * h < minCells || (fit === "widest" ? w : minW) > cols) continue;
      // Slide a window of the widest allowed width along the text-free runs of this band.
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

/** The area without the rows and columns at its edges that hold too little to be photograph. */
export function trimmed(busy: Count, [c, r, w, h]: Box): Box {
  while (w > 1 && busy(c, r, 1, h) < EDGE_BUSY_SHARE * h) [c, w] = [c + 1, w - 1];
  while (w > 1 && busy(c + w - 1, r, 1, h) < EDGE_BUSY_SHARE * h) w--;
  while (h > 1 && busy(c, r, w, 1) < EDGE_BUSY_SHARE * w) [r, h] = [r + 1, h - 1];
  while (h > 1 && busy(c, r + h - 1, w, 1) < EDGE_BUSY_SHARE * w) h--;
  return [c, r, w, h];
}
