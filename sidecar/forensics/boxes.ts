// Geometry of page boxes ([x, y, width, height] in pixels) that more than one forensic check needs.
import type { Box } from "./types.ts";

/** Whether two boxes share any area (touching edges do not). */
export const overlaps = (a: Box, b: Box): boolean =>
  a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
