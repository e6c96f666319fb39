// What a PDF generator reports about each string it drew, so forgeries can find and
// label it: boxes in PDF points with the origin at the top-left of the page (as mupdf
// reports text positions).
import type { Box } from "../render/svg.ts";
import type { Column } from "./model.ts";

/** A4 in PDF points. */
export const A4: [number, number] = [595.28, 841.89];

export interface DrawnText {
  text: string;
  field?: string;
  page: number;
  box: Box;
  size: number;
  /** Distance of the baseline from the top of the page, in points. */
  baseline: number;
  /** Drawn right-aligned at box.x + box.w. */
  alignRight: boolean;
}

export interface PdfInfo {
  producer: string;
  creator: string;
  creationDate: Date;
  title: string;
  author?: string;
}

/**
 * Where each column's text starts, for a table `width` points wide from `left`: `inset`
 * points inside the column's left edge, or inside its right edge when it is right-aligned
 * (`right`: the text ends there).
 */
export function columnAnchors(
  columns: Column[],
  left: number,
  width: number,
  inset: number,
): (Column & { x: number; right: boolean })[] {
  let edge = left;
  return columns.map((column) => {
    const right = column.align === "right";
    const x = right ? edge + column.width * width - inset : edge + inset;
    edge += column.width * width;
    return { ...column, x, right };
  });
}

export interface GeneratedPdf {
  bytes: Uint8Array;
  texts: DrawnText[];
  pageSize: [number, number];
}
