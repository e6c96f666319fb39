// Totals of payslips and bills: a row labelled as a total and the rows above it whose
// amounts stand in the same column (earnings → gross pay, deductions → total deductions,
// charges and tax → total due), and net pay = gross pay − total deductions. A block
// is judged only when it is clearly delimited: it starts below a header line (no
// digits), another total, or the top of its section; otherwise it is left unjudged.
import { median } from "../../numeric.ts";
import { judge, type Outcome } from "./arithmetic.ts";
import { placeUnder } from "./column-order.ts";
import { amountsIn, type Amount } from "./read-amount.ts";
import { findDates } from "./read-date.ts";
import { TOTAL_CREDITS, TOTAL_DEBITS } from "./statement.ts";
import { rowText, rowsOf, spansIn, type DocumentText, type Row } from "./text.ts";

// OCR often drops the space between words ("Summenetto"): a label's qualifier is matched
// with or without it, as in "summe\s*netto", since a bare "summe" then ends inside a word.
const TOTAL =
  /\b(total|sub-?total|gross\s*pay|total\s*gross|gross\s*earnings|amount\s*due|total\s*due|balance\s*due|total\s*to\s*pay|total\s*payable|montant\s*total|total\s*[àa]\s*payer|gesamtbetrag|summe(\s*(netto|brutto))?|zwischensumme|importe\s*total)\b/iu;
const NET =
  /\b(net\s*pay|net\s*salary|net\s*amount|take[-\s]?home(\s*pay)?|net\s*to\s*pay|net\s*[àa]\s*payer|nettobetrag|auszahlungsbetrag|l[íi]quido)\b/iu;
const GROSS =
  /\b(gross\s*pay|total\s*gross|gross\s*earnings|gross|salaire\s*brut|bruttobezug|brutto|total\s*devengado)\b/iu;
const DEDUCTIONS_TOTAL =
  /\b(total\s*deductions|deductions\s*total|total\s*des\s*retenues|total\s*cotisations|summe\s*abz[üu]ge|total\s*deducciones)\b/iu;
/** Items a bill lists as amounts but subtracts: printed without a sign on some bills. */
const SUBTRACTED = /\b(payments?(\s*received)?|paid|credits?|discounts?|refunds?|rebates?|allowances?)\b/iu;
const CHARGED = /\b(fees?|charges?|interest|penalty|surcharge)\b/iu;
const subtracted = (text: string) => SUBTRACTED.test(text) && !CHARGED.test(text);

/**
 * Distance between two items of a block read by OCR, top to top in line pitches, beyond
 * which rows went unread: one blank line is layout (a bill sets its subtotal apart: 2.2 to
 * 2.3 pitches on scans, up to 2.8 on phone photos, whose tilted rows read taller), more is
 * a line the reading missed. Pitches, not box heights: how tightly OCR boxes a line depends
 * on the detection size (at 1600 pixels a line's box is two thirds of its pitch, at 960
 * nearly all of it) and on the tilt, the pitch does not.
 */
const MAX_ITEM_PITCHES = 3;
/** Rows further apart than this many of their heights have blank space between them. */
const ADJACENT_ROWS = 1.6;

/**
 * The page's line pitch: the median distance between the centres of adjacent rows (those
 * with no blank line between them), or the median row height where no two are adjacent.
 */
function linePitch(rows: readonly Entry[]): number {
  const centre = (row: Row) => row.box[1] + row.box[3] / 2;
  const steps: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [above, below] = [rows[i - 1]!.row, rows[i]!.row];
    const step = centre(below) - centre(above);
    if (step > 0 && step <= ADJACENT_ROWS * Math.max(above.box[3], below.box[3])) steps.push(step);
  }
  return steps.length > 0 ? median(steps) : median(rows.map((entry) => entry.row.box[3]));
}

export interface SumFinding {
  outcome: Outcome;
  row: Row;
  label: string;
  expected: number;
  found: number;
  /** Every amount read for the sum, the total included. */
  inputs: Amount[];
}

/** A statement's column totals belong to the statement check, not to these sums. */
const isStatementTotal = (text: string) => TOTAL_DEBITS.test(text) || TOTAL_CREDITS.test(text);

const aligned = (a: Amount, b: Amount) => {
  const tolerance = 1.5 * Math.max(a.charWidth, b.charWidth);
  return Math.abs(a.right - b.right) <= tolerance || Math.abs(a.x - b.x) <= tolerance;
};

const startsWithDate = (row: Row) => (findDates(rowText(row))[0]?.index ?? Infinity) <= 12;

/** Every judged total of a document's payslip- or bill-like blocks. */
export function checkSums(document: DocumentText): SumFinding[] {
  const findings: SumFinding[] = [];
  for (const page of document.pages) {
    const rows = rowsOf(page).map((row) => ({ row, text: rowText(row), amounts: amountsIn(row) }));
    const pitch = linePitch(rows);
    rows.forEach((entry, index) => {
      if (!namesTotal(entry.text) || NET.test(entry.text) || isStatementTotal(entry.text)) return;
      const column = payslipColumn(rows, index);
      if (column !== undefined) {
        if (column) findings.push(sumOf(entry.row, entry.text, entry.amounts[0]!, column));
        return;
      }
      for (const total of entry.amounts) {
        // A bill printing two sections side by side puts one section's total on the row of
        // the other's last item: an amount under a label of its own that names no total is an item.
        if (!isTotalLabel(ownLabel(entry, total))) continue;
        const items =
          blockAbove(rows, index, total, pitch) ?? (entry.amounts.length === 1 ? blockApart(rows, index, pitch) : null);
        if (items) findings.push(sumOf(entry.row, entry.text, total, items));
      }
    });
    const net = netPay(rows);
    if (net) findings.push(net);
  }
  return findings;
}

type Entry = { row: Row; text: string; amounts: Amount[] };

type Item = { amount: Amount; text: string };

/** An item is named; an amount alone on its row is a line whose label went unread. */
const named = (text: string) => /\p{L}{2,}/u.test(text);

const namesTotal = (text: string) => TOTAL.test(text) || GROSS.test(text) || DEDUCTIONS_TOTAL.test(text);
const isTotalLabel = (label: string) => !named(label) || namesTotal(label);

/**
 * The words printed between the previous amount of the row (or its start) and `amount`:
 * the amount's own label, empty for a further column of the same total (this period, year to
 * date). Positions within a line are taken as evenly spread over its box.
 */
function ownLabel(entry: Entry, amount: Amount): string {
  const to = amount.right - amount.text.length * amount.charWidth;
  const from = Math.max(-Infinity, ...entry.amounts.filter((a) => a.right < amount.x).map((a) => a.right));
  return entry.row.cells
    .map((cell) => {
      const [left, , width] = cell.box;
      if (left + width <= from || left >= to) return "";
      const perCharacter = width / Math.max(1, cell.text.length);
      const start = Math.max(0, Math.ceil((from - left) / perCharacter));
      const end = Math.floor((to - left) / perCharacter);
      return cell.text.slice(start, end);
    })
    .join(" ");
}

const EARNINGS = /\b(earnings|gains|bez[üu]ge|devengos)\b/giu;
const DEDUCTIONS = /\b(deductions|retenues|abz[üu]ge|deducciones)\b/giu;

/** Where an "Earnings | Deductions" header row places its two columns. */
function payslipHeader(row: Row): { earnings: number; deductions: number } | undefined {
  const earnings = spansIn(row, EARNINGS)[0]?.x;
  const deductions = spansIn(row, DEDUCTIONS)[0]?.x;
  return earnings === undefined || deductions === undefined ? undefined : { earnings, deductions };
}

/**
 * Gross pay and total deductions of a payslip laid out under an "Earnings | Deductions"
 * header: each sums its own column from the header down, wherever the total itself is
 * printed (often in one totals column at the right). Undefined when the row is not such a
 * total or there is no such header; null when the column cannot be read whole.
 */
function payslipColumn(rows: Entry[], index: number): Item[] | null | undefined {
  const text = rows[index]!.text;
  const kind = DEDUCTIONS_TOTAL.test(text) ? "deductions" : GROSS.test(text) ? "earnings" : undefined;
  if (!kind || rows[index]!.amounts.length === 0) return undefined;
  const header = rows.findLastIndex(
    (entry, i) => i < index && !/\d/.test(entry.text) && payslipHeader(entry.row) !== undefined,
  );
  if (header < 0) return undefined;
  // Gross pay printed above the deductions' total is a total, not a deduction.
  const block = rows
    .slice(header + 1, index)
    .filter((entry) => !(TOTAL.test(entry.text) || NET.test(entry.text) || GROSS.test(entry.text)));
  const place = placeUnder(
    payslipHeader(rows[header]!.row)!,
    block.flatMap((entry) => entry.amounts),
  );
  const items: Item[] = [];
  for (const entry of block) {
    // Digits that read as no amount are an amount OCR garbled: the column is not whole.
    if (entry.amounts.length === 0 && /\d/.test(entry.text)) return null;
    const mine = entry.amounts.filter((a) => place(a) === kind);
    if (mine.length === 0) continue;
    if (mine.length > 1 || !named(entry.text)) return null;
    items.push({ amount: mine[0]!, text: entry.text });
  }
  return items.length >= 2 ? items : null;
}

/**
 * The items summed into a total (those aligned with `anchor`, the total itself unless the
 * items stand in a column of their own), or null when the block above it is not clearly
 * delimited. `pitch` is the page's line pitch (linePitch).
 */
function blockAbove(rows: Entry[], index: number, anchor: Amount, pitch: number): Item[] | null {
  const items: Item[] = [];
  const sectionLeft = rows[index]!.row.box[0];
  let previousTop = rows[index]!.row.box[1];
  for (let i = index - 1; i >= 0; i--) {
    const entry = rows[i]!;
    const height = entry.row.box[3];
    const gap = previousTop - (entry.row.box[1] + height);
    if (gap > 3 * height) break;
    const step = previousTop - entry.row.box[1];
    previousTop = entry.row.box[1];
    if (startsWithDate(entry.row)) return null;
    const amount = entry.amounts.find((a) => aligned(a, anchor));
    if (amount) {
      // Items of one block follow each other row after row: a wider gap in OCR is lines
      // the reading missed, and a partial sum proves nothing. A text layer misses no line:
      // its blank space is layout (a totals box set apart from the table).
      if (entry.row.cells.some((c) => c.source === "ocr") && step > MAX_ITEM_PITCHES * pitch) return null;
      // The item's own label where it has one: a row may also hold the total of a section
      // beside this one. Without one (price, quantity, amount) the row's words name it.
      const own = ownLabel(entry, amount);
      const label = named(own) ? own : entry.text;
      if (!named(label)) return null;
      items.push({ amount, text: label });
      if (TOTAL.test(label)) break;
      continue;
    }
    // A header (no digits) ends the block. Figures in a row ending before the total's label
    // starts, or starting past its figure, are another section's, printed beside this one;
    // anything else with digits leaves the block unclear.
    if (!/\d/.test(entry.text)) break;
    if (entry.row.box[0] + entry.row.box[2] < sectionLeft || entry.row.box[0] > anchor.right) continue;
    return null;
  }
  return items.length >= 2 ? items : null;
}

/**
 * Items in a column of their own, the total set apart in another (office suites put a bill's
 * totals in a small table under the items): the block aligned with the single figure just
 * above the total.
 */
function blockApart(rows: Entry[], index: number, pitch: number): Item[] | null {
  const above = rows[index - 1];
  if (above?.amounts.length !== 1) return null;
  // The items' labels start where the total's does; a row starting elsewhere is another
  // section printed beside this one (supply charges left, delivery charges right).
  const row = rows[index]!.row;
  const indent = Math.abs(above.row.box[0] - row.box[0]);
  return indent <= 1.5 * above.amounts[0]!.charWidth ? blockAbove(rows, index, above.amounts[0]!, pitch) : null;
}

function sumOf(row: Row, text: string, total: Amount, items: Item[]): SumFinding {
  const inputs = [total, ...items.map((i) => i.amount)];
  // A total above may be a subtotal of this one (charges → total due) or a separate
  // figure (gross pay above the deductions): both readings are tried.
  const last = items[items.length - 1]!;
  const blocks = TOTAL.test(last.text) ? [items, items.slice(0, -1)] : [items];
  const expectations = blocks.flatMap((block) => [
    block.reduce((sum, i) => sum + i.amount.cents, 0),
    // Unsigned payments and credits on a bill are subtracted; either reading may be meant.
    block.reduce((sum, i) => sum + (subtracted(i.text) && !i.amount.signed ? -i.amount.cents : i.amount.cents), 0),
    // A credit note prints its items negative and may leave its tax unsigned (a published
    // Factur-X credit note: -218,48 HT, taxes 14,99, -233,47 TTC): every figure counts in
    // the total's direction.
    Math.sign(total.cents) * block.reduce((sum, i) => sum + Math.abs(i.amount.cents), 0),
  ]);
  const outcomes = expectations.map((expected) => ({
    expected,
    outcome: judge(expected, total.cents, items.length, inputs),
  }));
  const best =
    outcomes.find((o) => o.outcome === "agrees") ?? outcomes.find((o) => o.outcome === "uncertain") ?? outcomes[0]!;
  return { outcome: best.outcome, row, label: labelOf(text), expected: best.expected, found: total.cents, inputs };
}

function netPay(rows: Entry[]): SumFinding | null {
  const first = (pattern: RegExp, not?: RegExp) =>
    rows.find((e) => pattern.test(e.text) && !not?.test(e.text) && e.amounts.length > 0);
  const net = first(NET);
  const gross = first(GROSS, NET);
  const deductions = first(DEDUCTIONS_TOTAL);
  if (!net || !gross || !deductions) return null;
  // The first amount of each row: this period, before any year-to-date column.
  const [n, g, d] = [net.amounts[0]!, gross.amounts[0]!, deductions.amounts[0]!];
  const expected = g.cents - Math.abs(d.cents);
  const inputs = [n, g, d];
  return {
    outcome: judge(expected, n.cents, 1, inputs),
    row: net.row,
    label: labelOf(net.text),
    expected,
    found: n.cents,
    inputs,
  };
}

const labelOf = (text: string) =>
  text
    .replace(/[-+−(]?\s?[$€£¥]?\s?\d[\d.,' ]*\d\)?/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60);
