// Totals of payslips and bills: a row labelled as a total and the rows above it whose
// amounts stand in the same column (earnings → gross pay, deductions → total deductions,
// charges and tax → total due), and net pay = gross pay − total deductions. A block
// is judged only when it is clearly delimited: it starts below a header line (no
// digits), another total, or the top of its section; otherwise it is left unjudged.
import { judge, type Outcome } from "./arithmetic.ts";
import { amountsIn, type Amount } from "./read-amount.ts";
import { findDates } from "./read-date.ts";
import { rowText, rowsOf, type DocumentText, type Row } from "./text.ts";

const TOTAL = /\b(total|sub-?total|gross pay|total gross|gross earnings|amount due|total due|balance due|total to pay|total payable|montant total|total [àa] payer|gesamtbetrag|summe|importe total)\b/iu;
const NET = /\b(net pay|net salary|net amount|take[- ]home( pay)?|net to pay|net [àa] payer|nettobetrag|auszahlungsbetrag|l[íi]quido)\b/iu;
const GROSS = /\b(gross pay|total gross|gross earnings|gross|salaire brut|bruttobezug|brutto|total devengado)\b/iu;
const DEDUCTIONS_TOTAL = /\b(total deductions|deductions total|total des retenues|total cotisations|summe abz[üu]ge|total deducciones)\b/iu;
/** Items a bill lists as amounts but subtracts: printed without a sign on some bills. */
const SUBTRACTED = /\b(payments?( received)?|paid|credits?|discounts?|refunds?|rebates?|allowances?)\b/iu;
const CHARGED = /\b(fees?|charges?|interest|penalty|surcharge)\b/iu;
const subtracted = (text: string) => SUBTRACTED.test(text) && !CHARGED.test(text);
/** A statement's rows (a leading date) belong to the statement check, not to these sums. */
const STATEMENT_TOTAL = /\btotal (debits?|credits?|payments? (in|out)|paid (in|out)|withdrawals|deposits|money (in|out))\b/iu;

/** Blank space between two items of a block, in row heights, beyond which rows went unread. */
const MAX_ITEM_GAP = 1.5;

export interface SumFinding {
  outcome: Outcome;
  row: Row;
  label: string;
  expected: number;
  found: number;
}

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
    rows.forEach((entry, index) => {
      if (!TOTAL.test(entry.text) || NET.test(entry.text) || STATEMENT_TOTAL.test(entry.text)) return;
      for (const total of entry.amounts) {
        const items = blockAbove(rows, index, total);
        if (items) findings.push(sumOf(entry.row, entry.text, total, items));
      }
    });
    const net = netPay(rows);
    if (net) findings.push(net);
  }
  return findings;
}

type Entry = { row: Row; text: string; amounts: Amount[] };

/** The items summed into a total, or null when the block above it is not clearly delimited. */
function blockAbove(rows: Entry[], index: number, total: Amount): { amount: Amount; text: string }[] | null {
  const items: { amount: Amount; text: string }[] = [];
  let previousTop = rows[index]!.row.box[1];
  for (let i = index - 1; i >= 0; i--) {
    const entry = rows[i]!;
    const height = entry.row.box[3];
    const gap = previousTop - (entry.row.box[1] + height);
    if (gap > 3 * height) break;
    previousTop = entry.row.box[1];
    if (startsWithDate(entry.row)) return null;
    const amount = entry.amounts.find((a) => aligned(a, total));
    if (amount) {
      // Items of one block follow each other row after row: a wider gap is lines the
      // reading missed, and a partial sum proves nothing.
      if (gap > MAX_ITEM_GAP * height) return null;
      // An item is named; an amount alone on its row is a line whose label went unread.
      if (!/\p{L}{2,}/u.test(entry.text)) return null;
      items.push({ amount, text: entry.text });
      if (TOTAL.test(entry.text)) break;
      continue;
    }
    // A header (no digits) ends the block; anything else with digits leaves it unclear.
    if (/\d/.test(entry.text)) return null;
    break;
  }
  return items.length >= 2 ? items : null;
}

function sumOf(row: Row, text: string, total: Amount, items: { amount: Amount; text: string }[]): SumFinding {
  const inputs = [total, ...items.map((i) => i.amount)];
  // A total above may be a subtotal of this one (charges → total due) or a separate
  // figure (gross pay above the deductions): both readings are tried.
  const last = items[items.length - 1]!;
  const blocks = TOTAL.test(last.text) ? [items, items.slice(0, -1)] : [items];
  const expectations = blocks.flatMap((block) => [
    block.reduce((sum, i) => sum + i.amount.cents, 0),
    // Unsigned payments and credits on a bill are subtracted; either reading may be meant.
    block.reduce((sum, i) => sum + (subtracted(i.text) && !i.amount.signed ? -i.amount.cents : i.amount.cents), 0),
  ]);
  const outcomes = expectations.map((expected) => ({ expected, outcome: judge(expected, total.cents, items.length, inputs) }));
  const best = outcomes.find((o) => o.outcome === "agrees") ?? outcomes.find((o) => o.outcome === "uncertain") ?? outcomes[0]!;
  return { outcome: best.outcome, row, label: labelOf(text), expected: best.expected, found: total.cents };
}

function netPay(rows: Entry[]): SumFinding | null {
  const first = (pattern: RegExp, not?: RegExp) => rows.find((e) => pattern.test(e.text) && !(not && not.test(e.text)) && e.amounts.length > 0);
  const net = first(NET);
  const gross = first(GROSS, NET);
  const deductions = first(DEDUCTIONS_TOTAL);
  if (!net || !gross || !deductions) return null;
  // The first amount of each row: this period, before any year-to-date column.
  const [n, g, d] = [net.amounts[0]!, gross.amounts[0]!, deductions.amounts[0]!];
  const expected = g.cents - Math.abs(d.cents);
  return { outcome: judge(expected, n.cents, 1, [n, g, d]), row: net.row, label: labelOf(net.text), expected, found: n.cents };
}

const labelOf = (text: string) =>
  text
    .replace(/[-+−(]?\s?[$€£¥]?\s?\d[\d.,' ]*\d\)?/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60);
