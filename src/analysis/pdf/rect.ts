// Rectangles in PDF points as mupdf gives them, and the arithmetic the page-content
// detectors share. Its own file so that page-content.ts and fill-shapes.ts, which import
// each other's pieces otherwise, both depend on it instead of on one another.
import type { Box } from "../report.ts";

/** [x0, y0, x1, y1] in PDF points, origin top-left (mupdf's device space). */
export type Rect = [number, number, number, number];

export const rectArea = (r: Rect): number => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);

export const intersectionArea = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));

export const boxOfRect = (r: Rect): Box => [
  Math.round(r[0]),
  Math.round(r[1]),
  Math.round(r[2] - r[0]),
  Math.round(r[3] - r[1]),
];

export const rectOfBox = (b: Box): Rect => [b[0], b[1], b[0] + b[2], b[1] + b[3]];
