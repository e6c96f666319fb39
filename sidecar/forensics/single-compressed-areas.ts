// Areas of a page compressed once where the rest was compressed twice: a portrait or a
// field pasted between the two saves. Double quantisation's tile scores (double-quant.ts)
// are joined into connected areas, away from what fakes the same score on genuine pages:
// text (judged per line instead) and clipped pixels, whose first decoding was cut at 0 or
// 255 and so left the first table's lattice.
import type { DoubleQuantSummary } from "./double-quant.ts";
import { lumaAt } from "./graph-spec.ts";
import type { Box, SingleCompressedArea } from "./types.ts";

/** Tile z from which a tile counts as compressed once. */
const TILE_Z = 2.5;
/** Luma at or beyond which a pixel may have been clipped when the first save was decoded. */
const CLIPPED_LOW = 5;
const CLIPPED_HIGH = 250;
/** Share of clipped pixels from which a tile is not judged. */
const MAX_CLIPPED = 0.1;
/** Areas smaller than this are not reported. */
const MIN_REPORTED_TILES = 4;
/**
 * An area of at least this many tiles stands out. Measured on the evaluation corpus (tiles of
 * 32 px, text and clipped tiles left out): 246 genuine scans, photos, re-saves and messaging
 * copies, 47 of them with a first compression's period, reach at most 4 connected tiles; on
 * double-compressed forgeries pasted portraits span 12-177 tiles.
 */
export const DQ_AREA_MIN_TILES = 12;

export interface AreaInput {
  /** RGB pixels of the analysed page, row-major. */
  rgb: Uint8Array;
  width: number;
  height: number;
  /** OCR line boxes: text is judged per line. */
  lines: Box[];
  /** Tile side in pixels. */
  tileSide: number;
}

export function singleCompressedAreas(dq: DoubleQuantSummary, input: AreaInput): SingleCompressedArea[] {
  const cols = dq.tileCols;
  const rows = Math.ceil(dq.tiles.length / cols);
  const outlying = dq.tiles.map((z) => z !== null && z >= TILE_Z);
  // A page without a first compression's period (most pages, saved once) has no tile score:
  // nothing to join, and no reason to read its pixels.
  if (!outlying.includes(true)) return [];
  const judged = judgedTiles(input, cols, rows);
  const hot = outlying.map((o, i) => o && judged[i] === 1);
  const seen = new Uint8Array(hot.length);
  const areas: SingleCompressedArea[] = [];
  for (let start = 0; start < hot.length; start++) {
    if (!hot[start] || seen[start]) continue;
    seen[start] = 1;
    const stack = [start];
    let tiles = 0;
    let sumZ = 0;
    let [x0, y0, x1, y1] = [cols, rows, 0, 0];
    while (stack.length > 0) {
      const t = stack.pop()!;
      const [tx, ty] = [t % cols, Math.floor(t / cols)];
      tiles++;
      sumZ += dq.tiles[t]!;
      [x0, y0, x1, y1] = [Math.min(x0, tx), Math.min(y0, ty), Math.max(x1, tx + 1), Math.max(y1, ty + 1)];
      const neighbours = [tx > 0 ? t - 1 : -1, tx < cols - 1 ? t + 1 : -1, t - cols, t + cols];
      for (const n of neighbours) {
        if (n < 0 || n >= hot.length || !hot[n] || seen[n]) continue;
        seen[n] = 1;
        stack.push(n);
      }
    }
    if (tiles < MIN_REPORTED_TILES) continue;
    const side = input.tileSide;
    const box: Box = [
      x0 * side,
      y0 * side,
      Math.min(input.width, x1 * side) - x0 * side,
      Math.min(input.height, y1 * side) - y0 * side,
    ];
    areas.push({ box, tiles, meanZ: sumZ / tiles });
  }
  return areas.sort((a, b) => b.tiles - a.tiles);
}

/** 1 for a tile free of text and of clipped pixels. */
function judgedTiles({ rgb, width, height, lines, tileSide }: AreaInput, cols: number, rows: number): Uint8Array {
  const clipped = new Uint32Array(cols * rows);
  const pixels = new Uint32Array(cols * rows);
  // The tiles cover the analysed crop of whole blocks: pixels past it belong to none.
  for (let y = 0; y < Math.min(height, rows * tileSide); y++) {
    const rowStart = Math.floor(y / tileSide) * cols;
    for (let x = 0; x < Math.min(width, cols * tileSide); x++) {
      const o = (y * width + x) * 3;
      const luma = lumaAt(rgb, o);
      const t = rowStart + Math.floor(x / tileSide);
      pixels[t]!++;
      if (luma <= CLIPPED_LOW || luma >= CLIPPED_HIGH) clipped[t]!++;
    }
  }
  const judged = new Uint8Array(cols * rows);
  for (let t = 0; t < judged.length; t++) judged[t] = pixels[t]! > 0 && clipped[t]! < MAX_CLIPPED * pixels[t]! ? 1 : 0;
  for (const [x, y, w, h] of lines) {
    for (
      let ty = Math.max(0, Math.floor(y / tileSide));
      ty <= Math.min(rows - 1, Math.floor((y + h - 1) / tileSide));
      ty++
    ) {
      for (
        let tx = Math.max(0, Math.floor(x / tileSide));
        tx <= Math.min(cols - 1, Math.floor((x + w - 1) / tileSide));
        tx++
      )
        judged[ty * cols + tx] = 0;
    }
  }
  return judged;
}
