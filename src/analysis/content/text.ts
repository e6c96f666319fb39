// The text the content checks read: lines from the PDF's own text layer or from the
// sidecar's OCR, with the helpers every check needs to treat them alike (rows, positions
// of a match inside a line, how far a line can be trusted).
import type { Box } from "../report.ts";

export interface TextLine {
  text: string;
  box: Box;
  /** 0..1; 1 for PDF text. */
  confidence: number;
  source: "pdf" | "ocr";
}

export interface TextPage {
  page: number;
  width: number;
  height: number;
  lines: TextLine[];
}

export interface DocumentText {
  pages: TextPage[];
}

/**
 * PP-OCR's line confidence is the mean of its per-character probabilities: clean print
 * scores 0.95+, and one badly read character in a 20-character line still leaves ~0.97.
 * Below 0.9 several characters were guesses; such a line may inform but never accuse.
 */
export const CONFIDENT_OCR = 0.9;
/** Above this an OCR line is treated like PDF text even where one digit decides. */
export const SURE_OCR = 0.97;

export const isConfident = (line: Pick<TextLine, "source" | "confidence">): boolean =>
  line.source === "pdf" || line.confidence >= CONFIDENT_OCR;

export const isSure = (line: Pick<TextLine, "source" | "confidence">): boolean =>
  line.source === "pdf" || line.confidence >= SURE_OCR;

/** Mean confidence of some lines, PDF text counting as 1. */
export function meanConfidence(lines: readonly TextLine[]): number {
  if (lines.length === 0) return 0;
  return lines.reduce((sum, line) => sum + (line.source === "pdf" ? 1 : line.confidence), 0) / lines.length;
}

/** Accents off, upper case: the form labels and names are compared in. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toUpperCase();
}

/** One visual row: lines whose vertical extents overlap, left to right. */
export interface Row {
  page: number;
  cells: TextLine[];
  box: Box;
}

const centreY = (box: Box) => box[1] + box[3] / 2;

export function unionBox(boxes: readonly Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b[0]));
  const y0 = Math.min(...boxes.map((b) => b[1]));
  const x1 = Math.max(...boxes.map((b) => b[0] + b[2]));
  const y1 = Math.max(...boxes.map((b) => b[1] + b[3]));
  return [x0, y0, x1 - x0, y1 - y0];
}

/**
 * Groups a page's lines into rows, top to bottom. OCR returns a table cell per line and
 * PDF text often a whole row per line; grouping by vertical centre treats both alike.
 */
export function rowsOf(page: TextPage): Row[] {
  const lines = page.lines.filter((line) => line.text.trim() !== "").sort((a, b) => centreY(a.box) - centreY(b.box));
  const rows: { cells: TextLine[]; top: number; bottom: number }[] = [];
  for (const line of lines) {
    const centre = centreY(line.box);
    const row = rows.find((r) => centre >= r.top && centre <= r.bottom && overlapsVertically(r, line.box));
    if (row) row.cells.push(line);
    else rows.push({ cells: [line], top: line.box[1], bottom: line.box[1] + line.box[3] });
  }
  return rows.map((r) => {
    const cells = r.cells.sort((a, b) => a.box[0] - b.box[0]);
    return { page: page.page, cells, box: unionBox(cells.map((c) => c.box)) };
  });
}

function overlapsVertically(row: { top: number; bottom: number }, box: Box): boolean {
  const overlap = Math.min(row.bottom, box[1] + box[3]) - Math.max(row.top, box[1]);
  return overlap >= 0.5 * Math.min(row.bottom - row.top, box[3]);
}

/** A match inside a line, with its horizontal centre estimated from its character offset. */
export interface Span {
  text: string;
  /** Capture groups of the match. */
  groups: (string | undefined)[];
  line: TextLine;
  /** Offset of the match in its line's text. */
  index: number;
  x: number;
}

/** All matches of a global regular expression in a row's cells, each placed on the page. */
export function spansIn(row: Row, pattern: RegExp): Span[] {
  const spans: Span[] = [];
  for (const line of row.cells) {
    for (const match of line.text.matchAll(pattern)) {
      const middle = (match.index + match[0].length / 2) / Math.max(1, line.text.length);
      spans.push({ text: match[0], groups: match.slice(1), line, index: match.index, x: line.box[0] + line.box[2] * middle });
    }
  }
  return spans.sort((a, b) => a.x - b.x);
}

export const rowText = (row: Row): string => row.cells.map((cell) => cell.text).join("  ");
