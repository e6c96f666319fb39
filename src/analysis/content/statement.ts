// A bank statement's transaction table: the header that names the columns (debit,
// credit, balance or one signed amount, in English, French, German, Spanish, Dutch or
// Italian), where those columns stand (column-order.ts: by the figures under them), the
// rows that start with a date and carry amounts, and the opening, closing, forward and
// total rows around them, over as many pages as the table runs. Shared by the balance
// check and the date check (a transaction dated outside the statement period).
import { type Placer, placeUnder } from "./column-order.ts";
import { amountsIn, type Amount } from "./read-amount.ts";
import { findDates, type DateMatch } from "./read-date.ts";
import { rowText, rowsOf, spansIn, type DocumentText, type Row } from "./text.ts";

type Column = "debit" | "credit" | "balance" | "amount";

/**
 * Words as whole words: JavaScript's \b knows only ASCII letters, so "Übertrag" or "Libellé"
 * would never start or end one.
 */
const words = (alternatives: string, flags = "iu") =>
  new RegExp(`(?<![\\p{L}\\d])(?:${alternatives})(?![\\p{L}\\d])`, flags);

// Column names in English, French, German, Spanish, Dutch and Italian. OCR reads the i of
// debit and credit as l or 1, and the b of debit as d, often enough to matter.
const COLUMN_LABELS: [Column, RegExp][] = [
  [
    "debit",
    words(
      "d[ée][bd][il1]ts?|paid out|withdrawals?|money out|payments? out|out|soll|ausgang|belastung|cargos?|debe|af|dare",
      "giu",
    ),
  ],
  [
    "credit",
    words(
      "cr[ée]d[il1]ts?|paid in|deposits?|money in|payments? in|in|haben|eingang|gutschrift|abonos?|haber|bij|avere",
      "giu",
    ),
  ],
  ["balance", words("balance|solde|saldo|kontostand", "giu")],
  ["amount", words("amount|montant|betrag|umsatz|importe|bedrag|importo", "giu")],
];

const OPENING = words(
  "opening\\s*balance|previous\\s*balance|start(?:ing)?\\s*balance|solde\\s*(?:pr[ée]c[ée]dent|initial|d'ouverture)|ancien\\s*solde|anfangssaldo|alter\\s*(?:kontostand|saldo)|saldo\\s*(?:inicial|anterior|iniziale|precedente)|beginsaldo|vorig\\s*saldo",
);
const CLOSING = words(
  "closing\\s*balance|new\\s*balance|end(?:ing)?\\s*balance|solde\\s*final|nouveau\\s*solde|endsaldo|neuer\\s*(?:kontostand|saldo)|saldo\\s*(?:final|finale)|eindsaldo|nieuw\\s*saldo",
);
/**
 * A balance carried to the next page or brought from the previous one: a stated balance
 * where it stands in the table (at the top of the first page it is the opening balance).
 */
const FORWARD = words(
  "(?:balance\\s*)?(?:brought|carried)\\s*forward|balance\\s*[bc]/?f|[àa]\\s*reporter|solde\\s*report[ée]|report\\s*(?:du|de)\\s*solde|[üu]bertrag|saldovortrag|suma\\s*y\\s*sigue|transport\\s*(?:van|naar)|riporto|a\\s*riportare",
);
/** Column totals of a statement, which the statement check sums and the bill check leaves alone. */
export const TOTAL_DEBITS = words(
  "total\\s*(?:debits?|d[ée]bits?|payments?\\s*out|paid\\s*out|withdrawals|money\\s*out|cargos|af|dare)|summe\\s*soll|totaal\\s*af|totale\\s*dare",
);
export const TOTAL_CREDITS = words(
  "total\\s*(?:credits?|cr[ée]dits?|payments?\\s*in|paid\\s*in|deposits|money\\s*in|abonos|bij|avere)|summe\\s*haben|totaal\\s*bij|totale\\s*avere",
);

export interface Transaction {
  row: Row;
  /** Null for a row of the table whose date could not be read. */
  date: DateMatch | null;
  /** The movement: signed cents when the column or the text gives the sign. */
  amount: Amount | null;
  sign: 1 | -1 | null;
  balance: Amount | null;
}

/** A balance the statement states outside a transaction row. */
export interface StatedBalance {
  row: Row;
  balance: Amount;
  /** Opening and closing balances hold wherever printed; a forward balance where it stands. */
  kind: "opening" | "closing" | "forward";
  /** Transactions printed above it. */
  after: number;
}

export interface Statement {
  transactions: Transaction[];
  stated: StatedBalance[];
  totals: { row: Row; column: "debit" | "credit"; amount: Amount }[];
  /** Whether a header named the movement columns (debit and credit, or one amount column). */
  namedColumns: boolean;
}

type Header = Partial<Record<Column, number>>;

function headerColumns(row: Row): Header | null {
  const columns: Header = {};
  for (const [column, pattern] of COLUMN_LABELS) {
    const span = spansIn(row, pattern)[0];
    if (span) columns[column] = span.x;
  }
  const named = Object.keys(columns).length;
  // "in"/"out" alone are common words: a header names at least two columns, one of them
  // a balance or an amount.
  return named >= 2 &&
    (columns.balance !== undefined || columns.amount !== undefined) &&
    findDates(rowText(row)).length === 0
    ? columns
    : null;
}

const namesMovements = (columns: Header) =>
  columns.amount !== undefined || (columns.debit !== undefined && columns.credit !== undefined);

/**
 * A row's leading date as OCR garbles it: two-digit day and month and a year, a separator
 * lost or misread ("05.022025", "2401-7025"). Not "1.234,56" nor "12.345,67": the day and the
 * month have two digits each.
 */
const GARBLED_DATE = /^\s*\d{2}\D?\d{2}\D?(?:\d{4}|\d{2})(?!\d)/;

const leadingDate = (row: Row): DateMatch | null => {
  const text = rowText(row);
  const date = findDates(text)[0];
  return date && date.index <= 12 ? date : null;
};

const unread = (row: Row, date: DateMatch | null): Transaction => ({
  row,
  date,
  amount: null,
  sign: null,
  balance: null,
});

/** Cells of a row that start with a full date. */
const datedCells = (row: Row): number =>
  row.cells.filter((cell) => {
    const date = findDates(cell.text.trim())[0];
    return date !== undefined && date.index === 0 && date.text.length >= 8;
  }).length;

const statedKind = (text: string): StatedBalance["kind"] | null =>
  OPENING.test(text) ? "opening" : CLOSING.test(text) ? "closing" : FORWARD.test(text) ? "forward" : null;

/**
 * A row of the document with its leading date, its amounts and the table header above it, if any.
 */
interface Line {
  row: Row;
  date: DateMatch | null;
  amounts: Amount[];
  header: Header | null;
  isHeader: boolean;
}

function linesOf(document: DocumentText): Line[] {
  const lines: Line[] = [];
  let header: Header | null = null;
  for (const page of document.pages) {
    for (const row of rowsOf(page)) {
      const amounts = amountsIn(row);
      const named = amounts.length === 0 ? headerColumns(row) : null;
      if (named) header = named;
      lines.push({ row, date: leadingDate(row), amounts, header, isHeader: named !== null });
    }
  }
  return lines;
}

/** For each header, where its columns are, from the dated rows under it. */
function placers(lines: Line[]): Map<Header, Placer<Column>> {
  const out = new Map<Header, Placer<Column>>();
  for (const header of new Set(lines.flatMap((l) => (l.header ? [l.header] : [])))) {
    const figures = lines.filter((l) => l.header === header && l.date).flatMap((l) => l.amounts);
    out.set(header, placeUnder(header, figures));
  }
  return out;
}

/**
 * Reads the statement structure of a document, or null when it has no transaction table.
 * Pages are read in order: a table continued on the next page, its header repeated and its
 * balance carried and brought forward, is one table.
 */
export function readStatement(document: DocumentText): Statement | null {
  const statement: Statement = { transactions: [], stated: [], totals: [], namedColumns: false };
  const closed = () => statement.stated.some((s) => s.kind === "closing");
  const lines = linesOf(document);
  const placeBy = placers(lines);
  for (const { row, date, amounts, header, isHeader } of lines) {
    const place = header ? placeBy.get(header)! : null;
    if (isHeader) {
      statement.namedColumns ||= namesMovements(header!);
      continue;
    }
    if (amounts.length === 0) {
      // A transaction whose amounts could not be read still breaks the running balance.
      if (date && statement.transactions.length > 0) statement.transactions.push(unread(row, date));
      continue;
    }
    const text = rowText(row);
    const kind = statedKind(text);
    if (kind) {
      const balance = amounts.find((a) => place?.(a) === "balance") ?? amounts[amounts.length - 1]!;
      statement.stated.push({ row, balance, kind, after: statement.transactions.length });
    } else if (TOTAL_DEBITS.test(text) || TOTAL_CREDITS.test(text)) {
      statement.totals.push({ row, column: TOTAL_DEBITS.test(text) ? "debit" : "credit", amount: amounts[0]! });
    } else {
      // Amounts in the table's columns on a row whose date OCR garbled ("05.022025") are
      // still a transaction. Under a header that placed its columns, the row is read by them;
      // otherwise which figure is which is unknown, and unread it breaks the running balance.
      if (!date) {
        const started = statement.transactions.length > 0 || header !== null;
        const inTable = started && !closed() && statement.totals.length === 0;
        if (inTable && place && GARBLED_DATE.test(rowText(row)))
          statement.transactions.push(transaction(row, null, amounts, place));
        else if (inTable) statement.transactions.push(unread(row, null));
        continue;
      }
      // Two transactions read as one row (tight lines on a small image): which amount
      // belongs to which is unknown, so the row breaks the running balance instead.
      if (datedCells(row) > 1) statement.transactions.push(unread(row, date));
      else statement.transactions.push(transaction(row, date, amounts, place));
    }
  }
  // In a single amount column, a table that marks its debits (minus, parentheses, DR)
  // leaves its credits unmarked. OCR drops a thin minus often enough that an unmarked
  // figure it read may be a debit: it keeps no sign, and its balance may move either way.
  if (statement.transactions.some((t) => t.amount?.signed && t.sign === -1)) {
    for (const t of statement.transactions)
      if (t.amount && t.sign === null && t.amount.cents >= 0 && t.amount.line.source === "pdf") t.sign = 1;
  }
  return statement.transactions.length > 0 ? statement : null;
}

const signOf = (amount: Amount | null): 1 | -1 | null => (amount?.signed ? (amount.cents < 0 ? -1 : 1) : null);

function transaction(row: Row, date: DateMatch | null, amounts: Amount[], place: Placer<Column> | null): Transaction {
  if (place) {
    const by = (column: Column) => amounts.find((a) => place(a) === column) ?? null;
    const debit = by("debit");
    const credit = by("credit");
    const plain = by("amount");
    const amount = debit ?? credit ?? plain;
    const sign = debit ? -1 : credit ? 1 : signOf(plain);
    return { row, date, amount, sign, balance: by("balance") };
  }
  // No header: a signed amount and, when the row states one, the balance after it, last.
  const [first] = amounts;
  return {
    row,
    date,
    amount: first ?? null,
    sign: signOf(first ?? null),
    balance: amounts.length >= 2 ? amounts[amounts.length - 1]! : null,
  };
}
