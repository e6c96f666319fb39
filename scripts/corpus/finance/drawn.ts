// What a PDF generator reports about each string it drew, so forgeries can find and
// label it: boxes in PDF points with the origin at the top-left of the page (as mupdf
// reports text positions).
import type { Box } from "../render/svg.ts";

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

export interface GeneratedPdf {
  bytes: Uint8Array;
  texts: DrawnText[];
  pageSize: [number, number];
}
