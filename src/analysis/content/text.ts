// The text the content checks read: lines from the PDF's own text layer or from the
// sidecar's OCR, with the helpers every check needs to treat them alike (rows, positions
// of a match inside a line, how far a line can be trusted).
import type { Box } from "../report.ts";
import { upperMedian } from "../../numeric.ts";
import { isDigit } from "./read-digits.ts";

export interface TextLine {
  text: string;
  box: Box;
  /** 0..1; 1 for PDF text. */
  confidence: number;
  source: "pdf" | "ocr";
  /** OCR only: per character of `text` (by code point), how surely it was read. */
  characters?: readonly CharacterReading[];
  /**
   * OCR only: how far the line falls per pixel to the right, from the turned rectangle the text
   * detector fitted to it (its box is the upright rectangle around that).
   */
  slope?: number;
}

/** What the recogniser thought of one character: its probability and its runners-up. */
export interface CharacterReading {
  probability: number;
  alternatives: readonly { character: string; probability: number }[];
}

/**
 * A character the recogniser read at least this surely is taken as read, whatever its line's mean.
 */
export const SURE_CHARACTER = 0.9;

export const isReadSurely = (reading: CharacterReading): boolean => reading.probability >= SURE_CHARACTER;

/** Whether a character (a reading's, or one of its runners-up) is a letter of any script. */
export const isLetter = (character: string): boolean => /^\p{L}$/u.test(character);

/**
 * A line's per-character readings, indexable like its text: none when they are per code point and
 * the text holds any other character.
 */
export const characterReadings = (
  line: Pick<TextLine, "text" | "characters">,
): readonly CharacterReading[] | undefined =>
  line.characters?.length === line.text.length ? line.characters : undefined;

/**
 * Every digit of `line.text` from `from`, `length` characters, read surely per the recogniser's
 * own per-character probabilities; false where it describes no characters.
 */
export function digitsReadSurely(line: Pick<TextLine, "text" | "characters">, from: number, length: number): boolean {
  const readings = characterReadings(line);
  if (!readings) return false;
  for (let i = from; i < from + length; i++) {
    const reading = readings[i];
    if (isDigit(line.text[i]) && (!reading || !isReadSurely(reading))) return false;
  }
  return true;
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
const SURE_OCR = 0.97;

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
  // Compatibility forms too: OCR returns full-width brackets and colons from its CJK dictionary.
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase();
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
 * Steepest slope looked for where the lines do not say how they lie: a phone photo of a page
 * held by hand, about 4.5 degrees.
 */
const MAX_SKEW = 0.08;
const SKEW_STEP = 0.002;
/**
 * Lines whose own slope is measured (see measuredSkewOf) and how many: a line of fewer
 * characters has a rectangle too short to give its angle well.
 */
const MEASURED_MIN_CHARACTERS = 5;
const MEASURED_MIN_LINES = 5;
/** Steeper than about 11 degrees, a line's rectangle is taken for a misfit, not a row. */
const MAX_MEASURED_SLOPE = 0.2;
/**
 * How far a page's slope is searched from its lines' measured one: under the 0.03 or so that
 * would set every label of a table beside the next row's amount (a row's pitch over the table's
 * width), which a search from level cannot tell from the true slope.
 */
const MEASURED_REACH = 0.015;

/**
 * The page's row slope as its lines lie: the median of the slopes of the rectangles the text
 * detector turned to fit its longer lines. Undefined where too few lines say.
 */
function measuredSkewOf(lines: readonly TextLine[]): number | undefined {
  const slopes = lines
    .filter((l) => l.slope !== undefined && Math.abs(l.slope) <= MAX_MEASURED_SLOPE)
    .filter((l) => [...l.text.replace(/\s/gu, "")].length >= MEASURED_MIN_CHARACTERS)
    .map((l) => l.slope!);
  return slopes.length >= MEASURED_MIN_LINES ? upperMedian(slopes) : undefined;
}

/**
 * How far a row drifts down per pixel to the right. A photographed page is rarely level:
 * across a statement's width the balance column may sit half a row lower than the date it
 * belongs to. The slope that stacks the lines' centres into the fewest, fullest bands
 * (a projection profile, as in Postl's deskewing) is the page's. Ties go to `prior`.
 * Searched within `reach` of `prior`, and no steeper than MAX_SKEW unless `prior` is.
 */
function skewOf(lines: readonly TextLine[], prior = 0, reach = MAX_SKEW): number {
  if (lines.length < 6) return prior;
  const band = Math.max(2, upperMedian(lines.map((l) => l.box[3])) / 3);
  const bands = new Int32Array(lines.length);
  let best = prior;
  let bestScore = -1;
  const bound = Math.max(MAX_SKEW, Math.abs(prior));
  const from = Math.max(-bound, prior - reach);
  const to = Math.min(bound, prior + reach);
  for (let k = Math.round(from / SKEW_STEP); k <= Math.round(to / SKEW_STEP); k++) {
    const slope = k * SKEW_STEP;
    lines.forEach(({ box }, i) => {
      bands[i] = Math.round((centreY(box) - slope * (box[0] + box[2] / 2)) / band);
    });
    // Sorted, equal bands are runs: the score is the sum of the runs' squared lengths.
    bands.sort();
    let score = 0;
    let run = 1;
    for (let i = 1; i <= bands.length; i++) {
      if (i < bands.length && bands[i] === bands[i - 1]) run++;
      else {
        score += run * run;
        run = 1;
      }
    }
    if (score > bestScore || (score === bestScore && Math.abs(slope - prior) < Math.abs(best - prior))) {
      best = slope;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The page's row slope: near its lines' measured one where they give one (pages turned beyond
 * MAX_SKEW too), otherwise searched from level.
 */
function pageSkewOf(lines: readonly TextLine[]): number {
  const measured = measuredSkewOf(lines);
  return measured === undefined ? skewOf(lines) : skewOf(lines, measured, MEASURED_REACH);
}

/**
 * Lines a local slope is measured on: a dozen or so table rows. A phone photo of a page is
 * a perspective, not a rotation: rows near the top may fall twice as steeply as rows near
 * the bottom (0.056 and 0.024 on one photographed statement), and one slope for the page
 * then sets a table's header beside its first booking.
 */
const LOCAL_LINES = 30;
/** Windows start every few lines, not at each: neighbours share a slope, at a fifth of the cost. */
const LOCAL_STRIDE = 5;
/** How far a local slope may depart from the page's: a strong perspective's, about 1.7 degrees. */
const LOCAL_REACH = 0.03;

/**
 * Each line's slope: the page's, or where the page has lines enough, the one that stacks
 * the lines nearest it best. A window that stacks no better under another slope keeps the
 * page's, so a scan or a flat page reads as before.
 */
function slopesOf(lines: readonly TextLine[]): Map<TextLine, number> {
  const page = pageSkewOf(lines);
  if (lines.length < 2 * LOCAL_LINES) return new Map(lines.map((line) => [line, page]));
  const sorted = [...lines].sort((a, b) => centreY(a.box) - centreY(b.box));
  const windows = new Map<number, number>();
  const slopeFrom = (from: number) => {
    if (!windows.has(from)) windows.set(from, skewOf(sorted.slice(from, from + LOCAL_LINES), page, LOCAL_REACH));
    return windows.get(from)!;
  };
  return new Map(
    sorted.map((line, i) => {
      const centred = Math.min(i - LOCAL_LINES / 2, sorted.length - LOCAL_LINES);
      return [line, slopeFrom(Math.max(0, Math.round(centred / LOCAL_STRIDE) * LOCAL_STRIDE))];
    }),
  );
}

/**
 * Groups a page's lines into rows, top to bottom. OCR returns a table cell per line and
 * PDF text often a whole row per line; grouping by vertical centre treats both alike, once
 * the skew where each line stands is taken out.
 */
export function rowsOf(page: TextPage): readonly Row[] {
  // Every check that reads a table asks for the same page's rows (statements, sums, zones,
  // columns, the document's text): levelling them, local slopes and all, is done once per page.
  const known = rowsByPage.get(page);
  if (known) return known;
  const rows = groupRows(page);
  rowsByPage.set(page, rows);
  return rows;
}

const rowsByPage = new WeakMap<TextPage, readonly Row[]>();

function groupRows(page: TextPage): readonly Row[] {
  const lines = page.lines.filter((line) => line.text.trim() !== "");
  const slopes = lines.some((line) => line.source === "ocr") ? slopesOf(lines) : null;
  const level = (line: TextLine): Box => [
    line.box[0],
    line.box[1] - (slopes?.get(line) ?? 0) * (line.box[0] + line.box[2] / 2),
    line.box[2],
    line.box[3],
  ];
  const placed = lines.map((line) => ({ line, box: level(line) })).sort((a, b) => centreY(a.box) - centreY(b.box));
  const rows: { cells: TextLine[]; top: number; bottom: number }[] = [];
  for (const { line, box } of placed) {
    const centre = centreY(box);
    const row = rows.find((r) => centre >= r.top && centre <= r.bottom && overlapsVertically(r, box));
    if (row) row.cells.push(line);
    else rows.push({ cells: [line], top: box[1], bottom: box[1] + box[3] });
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
      spans.push({
        text: match[0],
        groups: match.slice(1),
        line,
        index: match.index,
        x: line.box[0] + line.box[2] * middle,
      });
    }
  }
  return spans.sort((a, b) => a.x - b.x);
}

export const rowText = (row: Row): string => row.cells.map((cell) => cell.text).join("  ");
