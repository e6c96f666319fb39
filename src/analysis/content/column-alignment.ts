// Amounts that leave their column. Statements, payslips and bills right-align the numbers
// of a column, so their right edges agree to a fraction of a point whatever their widths.
// Rewriting a shown string in place keeps its start position: when the new amount has a
// different width (one digit more or fewer), its right edge leaves the column. A column
// counts as right-aligned only when amounts of different widths share its right edge:
// that is what no left-aligned or centred column does. Edges are measured in line heights
// so PDF points and OCR pixels are judged alike; a photo's perspective slants a column,
// so the edge is a robust straight line through the column rather than one x.
import { median } from "../../numeric.ts";
import { round2 } from "../pixel/traces.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { amountsIn } from "./read-amount.ts";
import { isSure, rowsOf, type DocumentText, type TextLine, type TextPage } from "./text.ts";
import type { DetectorName } from "../manifest.ts";

export const COLUMN_ALIGNMENT_DETECTOR = "column-alignment" satisfies DetectorName;

export interface AlignmentThresholds {
  /** Largest distance from the column's edge, in line heights, that still counts as on it. */
  tolerance: number;
  /** Smallest distance, in line heights, that accuses an amount of leaving its column. */
  accuse: number;
  /** Evidence strength of one misaligned amount. */
  strength: number;
  /** Share of a column's amounts that must keep its edge before it is trusted as a column. */
  minAlignedShare: number;
  /**
   * Farthest an amount may be off the edge, in line heights, and still be this column's: a
   * rewritten amount gains or loses a few characters (~0.4-0.5 line heights each); further
   * off it belongs to some other layout (a boxed total, an indented subtotal).
   */
  maxOffset: number;
  /**
   * Smallest distance, in the amount's own character widths (its box width over its
   * characters), that accuses: a measure of the print itself, whatever height the reader
   * gave the line's box.
   */
  minCharacters: number;
}

/**
 * Measured on the generated corpus (seed 42, full): on the 78 genuine
 * PDFs (pdf-lib, PDFKit, re-saved) every amount of a right-aligned column lies within
 * 0.17 line heights of its edge (integer-point boxes); one digit more or fewer moves an
 * edge by ~0.45.
 */
export const PDF_THRESHOLDS: Readonly<AlignmentThresholds> = {
  tolerance: 0.15,
  accuse: 0.3,
  strength: 0.45,
  minAlignedShare: 0.6,
  maxOffset: 2,
  minCharacters: 0,
};
/**
 * OCR boxes jitter more (detector padding, ink rather than advance widths, perspective):
 * on the corpus's 52 genuine photos and scans of statements and bills,
 * amounts lie within 0.22 line heights of their column's edge, while a digit is ~0.37 of
 * an OCR line's height and one seen rewritten moved its edge by only ~0.2. A single
 * digit cannot be told from jitter here; two characters or more can. A column is trusted
 * only when four amounts in five keep its edge: amounts centred in table cells, as on
 * published Dutch and Italian invoices photographed, keep one edge for two in three and
 * were taken for rewritten. On OCR an amount is this column's only within 1.2 line heights
 * (two or three characters): a pub receipt's indented subtotal, 1.9 off, is its own layout.
 * Line heights are the detector's boxes, which depend on the size it reads the page at: once
 * detection read pages at up to 1600 pixels, its tighter boxes made a published French
 * invoice's amount, one character off its column, 0.37 line heights off. So an OCR amount is
 * accused only two characters or more off, as said above, counted in its own characters.
 */
export const OCR_THRESHOLDS: Readonly<AlignmentThresholds> = {
  tolerance: 0.22,
  accuse: 0.32,
  strength: 0.3,
  minAlignedShare: 0.8,
  maxOffset: 1.2,
  minCharacters: 2,
};

/** Fewest amounts on a column's edge before it is trusted as a column. */
const MIN_ALIGNED = 4;
/** Strength kept when a column's alignment is read from the rest of the page. */
const INFERRED_STRENGTH = 0.7;
/** Amounts a column may hold: keeps the pairwise slope fit small on a hostile page. */
const MAX_COLUMN = 300;

/** An amount that fills its whole text line, so the line's box is the amount's box. */
interface Cell {
  line: TextLine;
  left: number;
  right: number;
  middle: number;
  width: number;
  height: number;
}

function amountCells(page: TextPage): Cell[] {
  const cells: Cell[] = [];
  for (const row of rowsOf(page)) {
    for (const amount of amountsIn(row)) {
      if (amount.repaired || !isSure(amount.line)) continue;
      if (amount.text.length !== amount.line.text.trim().length) continue;
      const [x, y, w, h] = amount.line.box;
      if (w <= 0 || h <= 0) continue;
      cells.push({ line: amount.line, left: x, right: x + w, middle: y + h / 2, width: w, height: h });
    }
  }
  return cells;
}

/** Amounts whose horizontal extents overlap, chained: one column each, top to bottom. */
function columnsOf(cells: Cell[]): Cell[][] {
  const sorted = [...cells].sort((a, b) => a.left - b.left);
  const columns: { cells: Cell[]; right: number }[] = [];
  for (const cell of sorted) {
    const column = columns.find((c) => cell.left < c.right);
    if (column) {
      column.cells.push(cell);
      column.right = Math.max(column.right, cell.right);
    } else columns.push({ cells: [cell], right: cell.right });
  }
  return columns.map((c) => c.cells.sort((a, b) => a.middle - b.middle));
}

type Side = "left" | "right";
const edgeOf = (cell: Cell, side: Side) => (side === "right" ? cell.right : cell.left);

/** Theil–Sen line through (middle, edge): a few moved edges cannot pull it. */
function edgeLine(cells: Cell[], side: Side): (cell: Cell) => number {
  const slopes: number[] = [];
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      const dy = cells[j]!.middle - cells[i]!.middle;
      if (Math.abs(dy) > 1e-6) slopes.push((edgeOf(cells[j]!, side) - edgeOf(cells[i]!, side)) / dy);
    }
  }
  const slope = slopes.length > 0 ? median(slopes) : 0;
  const intercept = median(cells.map((c) => edgeOf(c, side) - slope * c.middle));
  return (cell) => intercept + slope * cell.middle;
}

interface Offset {
  cell: Cell;
  /** Distance of the cell's edge from the column's, in line heights. */
  offset: number;
  /** The same distance in the amount's own character widths. */
  characters: number;
}

/** The amount's mean character width: its box over its characters, spaces left out. */
const characterWidth = (cell: Cell) => cell.width / Math.max(1, cell.line.text.replace(/\s/g, "").length);

interface EdgeFit {
  offsets: Offset[];
  aligned: Offset[];
  /** Amounts of differing widths share the edge: the column is aligned on this side. */
  proven: boolean;
}

/** How well a column holds one edge; undefined when too few of its amounts are on it. */
function fitEdge(cells: Cell[], side: Side, t: Readonly<AlignmentThresholds>): EdgeFit | undefined {
  const unit = median(cells.map((c) => c.height));
  const edge = edgeLine(cells, side);
  const offsets = cells.map((cell) => {
    const distance = edgeOf(cell, side) - edge(cell);
    return { cell, offset: distance / unit, characters: distance / characterWidth(cell) };
  });
  const aligned = offsets.filter((o) => Math.abs(o.offset) <= t.tolerance);
  if (aligned.length < Math.max(MIN_ALIGNED, t.minAlignedShare * cells.length)) return undefined;
  // Amounts of one width line up on the left and the centre as well: only differing
  // widths on one edge prove which side the column is aligned on.
  const widths = aligned.map((o) => o.cell.width / unit);
  return { offsets, aligned, proven: Math.max(...widths) - Math.min(...widths) >= t.accuse };
}

/** Amounts off the column's right edge, between amounts that keep it. */
function misaligned(fit: EdgeFit, t: Readonly<AlignmentThresholds>): Offset[] {
  // A block of amounts above or below the table (a totals box) may keep an edge of its
  // own; an amount rewritten in place sits between amounts that keep the column's edge.
  const top = Math.min(...fit.aligned.map((o) => o.cell.middle));
  const bottom = Math.max(...fit.aligned.map((o) => o.cell.middle));
  return fit.offsets.filter(
    (o) =>
      Math.abs(o.offset) >= t.accuse &&
      Math.abs(o.offset) <= t.maxOffset &&
      Math.abs(o.characters) >= t.minCharacters &&
      o.cell.middle > top &&
      o.cell.middle < bottom,
  );
}

export interface AlignmentOptions {
  pdf: Readonly<AlignmentThresholds>;
  ocr: Readonly<AlignmentThresholds>;
}

/** Runs the column check over every page; OCR pages are judged with the looser thresholds. */
export function checkColumnAlignment(
  document: DocumentText,
  options: AlignmentOptions = { pdf: PDF_THRESHOLDS, ocr: OCR_THRESHOLDS },
): DetectorResult {
  const evidence: Evidence[] = [];
  let columns = 0;
  let amounts = 0;
  let spread = 0;
  for (const page of document.pages) {
    const cells = amountCells(page);
    const ocr = cells.some((c) => c.line.source === "ocr");
    const t = ocr ? options.ocr : options.pdf;
    const fits = columnsOf(cells)
      .filter((column) => column.length >= MIN_ALIGNED && column.length <= MAX_COLUMN)
      .map((column) => ({ column, right: fitEdge(column, "right", t), left: fitEdge(column, "left", t) }));
    // A column whose amounts on its right edge share one width could be aligned either
    // way (its odd amounts then share the left edge, as a left-aligned column's would):
    // it is read as right-aligned when another column of the page proves that is how
    // this page sets amounts and none proves the opposite, and accused less strongly.
    const rightByPage = (fit: (typeof fits)[number]) => {
      const others = fits.filter((f) => f !== fit);
      return others.some((f) => f.right?.proven) && !others.some((f) => f.left?.proven && !f.right?.proven);
    };
    for (const fit of fits) {
      const { column, right } = fit;
      if (!right || !(right.proven || rightByPage(fit))) continue;
      columns++;
      amounts += column.length;
      spread = Math.max(spread, ...right.aligned.map((o) => Math.abs(o.offset)));
      const strength = right.proven ? t.strength : t.strength * INFERRED_STRENGTH;
      for (const { cell, offset } of misaligned(right, t)) {
        evidence.push({
          flag: "text_inconsistency",
          detector: COLUMN_ALIGNMENT_DETECTOR,
          strength,
          message: `An amount's right edge is ${round2(Math.abs(offset))} line heights off the right edge its column's other amounts share${right.proven ? "" : " (the column's alignment read from the page's other columns)"}`,
          page: page.page,
          box: cell.line.box,
          measured: round2(Math.abs(offset)),
          threshold: t.accuse,
        });
      }
    }
  }
  return {
    detector: COLUMN_ALIGNMENT_DETECTOR,
    evidence,
    facts: { columns, amounts, alignedSpread: round2(spread), misaligned: evidence.length },
    // A document without a right-aligned column of amounts gives this check nothing to judge.
    coverage: columns > 0 ? 1 : 0,
  };
}
