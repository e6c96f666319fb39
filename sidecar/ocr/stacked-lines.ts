// Splits a DB text region that holds two stacked lines. On tight scans the probability
// kernels of two close lines can touch through a few pixels, and the region becomes one
// box twice a line high, which the recogniser reads as garbage for both lines (a bill's
// "30.29" over "40.28" came back as one line "3028"). Such a region shows, row by row, two
// bands of text with a valley of almost no text pixels between them; one tall line (a title,
// a large amount) is solid from top to bottom. So a region is cut only where it is markedly
// taller than the page's typical line, has such a valley, and both sides of the valley
// would be plausible lines on their own.
import { upperMedian } from "../../src/numeric.ts";
import { type Point, minAreaRect } from "./geometry.ts";

/** One row of a text region: its leftmost and rightmost pixel and how many of its pixels are text. */
export interface RegionRow {
  y: number;
  minX: number;
  maxX: number;
  pixels: number;
}

/** A region taller than this many typical lines may hold stacked lines. */
const TALL = 1.6;
/** Each part of a cut is at least this many typical lines high, and at least MIN_BAND rows. */
const BAND = 0.6;
const MIN_BAND = 3;
/**
 * A valley row has at most this share of the text pixels of the fullest row of the fainter
 * band: a line's own rows are full, while the bridges between merged amounts on scanned and
 * photographed bills were 1 to 3 pixels across lines 10 to 14 wide (a quarter missed the 3).
 */
const VALLEY = 0.35;
/**
 * Each part must lie level within this many radians. A valley between rows only separates
 * level lines: two slanted lines (a stamp) have rows crossing both, and a cut along a row
 * would slice a line in two.
 */
const MAX_TILT = (5 * Math.PI) / 180;

/**
 * Median height in rows of the regions at least MIN_BAND rows high (noise specks would pull
 * it down); NaN when there are none.
 */
export function typicalLineHeight(regions: RegionRow[][]): number {
  return upperMedian(regions.map((rows) => rows.length).filter((h) => h >= MIN_BAND));
}

/** The region's rows (top to bottom, contiguous) as one or more lines. */
export function splitStackedLines(rows: RegionRow[], lineHeight: number): RegionRow[][] {
  if (Number.isNaN(lineHeight) || rows.length < TALL * lineHeight) return [rows];
  const minBand = Math.max(MIN_BAND, Math.ceil(BAND * lineHeight));
  // The thinnest row that leaves room for a line above and below it.
  let cut = -1;
  for (let i = minBand; i < rows.length - minBand; i++) {
    if (cut < 0 || rows[i]!.pixels < rows[cut]!.pixels) cut = i;
  }
  if (cut < 0) return [rows];
  const fullest = (band: RegionRow[]) => Math.max(...band.map((row) => row.pixels));
  const limit = VALLEY * Math.min(fullest(rows.slice(0, cut)), fullest(rows.slice(cut + 1)));
  if (rows[cut]!.pixels > limit) return [rows];
  // The valley's rows belong to neither line: a stray bridge pixel would tilt a line's box.
  let top = cut;
  let bottom = cut;
  while (top > 0 && rows[top - 1]!.pixels <= limit) top--;
  while (bottom < rows.length - 1 && rows[bottom + 1]!.pixels <= limit) bottom++;
  const above = rows.slice(0, top);
  const below = rows.slice(bottom + 1);
  if (!isLine(above, minBand) || !isLine(below, minBand)) return [rows];
  // Three stacked lines give two valleys: each part is examined again.
  return [...splitStackedLines(above, lineHeight), ...splitStackedLines(below, lineHeight)];
}

/**
 * High enough to be a line, level, and at least as wide as high: a vertical line of text has
 * gaps between its words that look like valleys, and must not be cut into words.
 */
function isLine(band: RegionRow[], minBand: number): boolean {
  if (band.length < minBand) return false;
  const width = Math.max(...band.map((row) => row.maxX)) - Math.min(...band.map((row) => row.minX)) + 1;
  if (width < band.length) return false;
  // The rectangle's angle is that of one of its sides, either of which may be the long one.
  const angle = Math.abs(minAreaRect(hullPoints(band)).angle) % (Math.PI / 2);
  return Math.min(angle, Math.PI / 2 - angle) <= MAX_TILT;
}

/** Each row's leftmost and rightmost pixel: they have the same convex hull as the whole region. */
export function hullPoints(rows: RegionRow[]): Point[] {
  const points: Point[] = [];
  for (const { y, minX, maxX } of rows) {
    points.push([minX, y]);
    if (maxX !== minX) points.push([maxX, y]);
  }
  return points;
}
