// A bank statement's transaction table: the header that names the columns (debit,
// credit, balance or one signed amount), the rows that start with a date and carry
// amounts, and the opening, closing and total rows around them. Shared by the balance
// check and the date check (a transaction dated outside the statement period).
import { amountsIn, type Amount } from "./read-amount.ts";
import { findDates, type DateMatch } from "./read-date.ts";
import { rowText, rowsOf, spansIn, type DocumentText, type Row } from "./text.ts";

export type Column = "debit" | "credit" | "balance" | "amount";

const COLUMN_LABELS: [Column, RegExp][] = [
  // OCR reads the i of debit and credit as l or 1 often enough to matter.
  ["debit", /\b(d[ée]b[il1]ts?|paid out|withdrawals?|money out|payments? out|out|soll|cargos?|ausgang|belastung)\b/giu],
  ["credit", /\b(cr[ée]d[il1]ts?|paid in|deposits?|money in|payments? in|in|haben|abonos?|eingang|gutschrift)\b/giu],
  ["balance", /\b(balance|solde|saldo|kontostand)\b/giu],
  ["amount", /\b(amount|montant|betrag|importe)\b/giu],
];

const OPENING = /\b(opening\s*balance|balance\s*brought\s*forward|brought\s*forward|previous\s*balance|balance\s*b\/?f|start(ing)?\s*balance|solde\s*(pr[ée]c[ée]dent|initial|d'ouverture)|anfangssaldo|alter\s*kontostand|saldo\s*(inicial|anterior))\b/iu;
const CLOSING = /\b(closing\s*balance|balance\s*carried\s*forward|carried\s*forward|new\s*balance|balance\s*c\/?f|end(ing)?\s*balance|solde\s*(final|nouveau)|nouveau\s*solde|endsaldo|neuer\s*kontostand|saldo\s*final)\b/iu;
const TOTAL_DEBITS = /\btotal\s*(debits?|payments?\s*out|paid\s*out|withdrawals|money\s*out)\b/iu;
const TOTAL_CREDITS = /\btotal\s*(credits?|payments?\s*in|paid\s*in|deposits|money\s*in)\b/iu;

export interface Transaction {
  row: Row;
  /** Null for a row of the table whose date could not be read. */
  date: DateMatch | null;
  /** The movement: signed cents when the column or the text gives the sign. */
  amount: Amount | null;
  sign: 1 | -1 | null;
  balance: Amount | null;
}

export interface Statement {
  opening: { row: Row; balance: Amount } | null;
  closing: { row: Row; balance: Amount } | null;
  transactions: Transaction[];
  totals: { row: Row; column: "debit" | "credit"; amount: Amount }[];
  columns: Partial<Record<Column, number>>;
}

function headerColumns(row: Row): Partial<Record<Column, number>> | null {
  const columns: Partial<Record<Column, number>> = {};
  for (const [column, pattern] of COLUMN_LABELS) {
    const span = spansIn(row, pattern)[0];
    if (span) columns[column] = span.x;
  }
  const named = Object.keys(columns).length;
  // "in"/"out" alone are common words: a header names at least two columns, one of them
  // a balance or an amount.
  return named >= 2 && (columns.balance !== undefined || columns.amount !== undefined) && findDates(rowText(row)).length === 0 ? columns : null;
}

function nearestColumn(amount: Amount, columns: Partial<Record<Column, number>>): Column | null {
  let best: Column | null = null;
  let distance = Infinity;
  for (const [column, x] of Object.entries(columns) as [Column, number][]) {
    const d = Math.min(Math.abs(x - amount.x), Math.abs(x - amount.right));
    if (d < distance) {
      best = column;
      distance = d;
    }
  }
  return best;
}

const leadingDate = (row: Row): DateMatch | null => {
  const text = rowText(row);
  const date = findDates(text)[0];
  return date && date.index <= 12 ? date : null;
};

const unread = (row: Row, date: DateMatch | null): Transaction => ({ row, date, amount: null, sign: null, balance: null });

/** Cells of a row that start with a full date. */
const datedCells = (row: Row): number =>
  row.cells.filter((cell) => {
    const date = findDates(cell.text.trim())[0];
    return date !== undefined && date.index === 0 && date.text.length >= 8;
  }).length;

/** Reads the statement structure of a document, or null when it has no transaction table. */
export function readStatement(document: DocumentText): Statement | null {
  const statement: Statement = { opening: null, closing: null, transactions: [], totals: [], columns: {} };
  for (const page of document.pages) {
    for (const row of rowsOf(page)) {
      const amounts = amountsIn(row);
      if (amounts.length === 0) {
        const header = headerColumns(row);
        if (header) statement.columns = header;
        else if (statement.transactions.length > 0) {
          // A transaction whose amounts could not be read still breaks the running balance.
          const date = leadingDate(row);
          if (date) statement.transactions.push(unread(row, date));
        }
        continue;
      }
      const text = rowText(row);
      const inColumn = (column: Column) => amounts.find((a) => nearestColumn(a, statement.columns) === column);
      const balanceOf = () => inColumn("balance") ?? amounts[amounts.length - 1]!;
      if (OPENING.test(text)) statement.opening ??= { row, balance: balanceOf() };
      else if (CLOSING.test(text)) statement.closing = { row, balance: balanceOf() };
      else if (TOTAL_DEBITS.test(text) || TOTAL_CREDITS.test(text)) {
        statement.totals.push({ row, column: TOTAL_DEBITS.test(text) ? "debit" : "credit", amount: amounts[0]! });
      } else {
        const date = leadingDate(row);
        // Amounts in the table's columns on a row whose date OCR garbled ("10:01/2025") are
        // still a transaction: unread, it breaks the running balance.
        if (!date) {
          const started = statement.transactions.length > 0 || Object.keys(statement.columns).length > 0;
          const inTable = started && !statement.closing && statement.totals.length === 0;
          if (inTable) statement.transactions.push(unread(row, null));
          continue;
        }
        // Two transactions read as one row (tight lines on a small image): which amount
        // belongs to which is unknown, so the row breaks the running balance instead.
        if (datedCells(row) > 1) statement.transactions.push(unread(row, date));
        else statement.transactions.push(transaction(row, date, amounts, statement.columns));
      }
    }
  }
  // In a single amount column, a table that marks its debits (minus, parentheses, DR)
  // leaves its credits unmarked.
  if (statement.transactions.some((t) => t.amount?.signed && t.sign === -1)) {
    for (const t of statement.transactions) if (t.amount && t.sign === null && t.amount.cents >= 0) t.sign = 1;
  }
  return statement.transactions.length > 0 ? statement : null;
}

function transaction(row: Row, date: DateMatch, amounts: Amount[], columns: Partial<Record<Column, number>>): Transaction {
  if (Object.keys(columns).length > 0) {
    const by = (column: Column) => amounts.find((a) => nearestColumn(a, columns) === column) ?? null;
    const debit = by("debit");
    const credit = by("credit");
    const plain = by("amount");
    const amount = debit ?? credit ?? plain;
    const sign = debit ? -1 : credit ? 1 : plain?.signed ? (plain.cents < 0 ? -1 : 1) : null;
    return { row, date, amount, sign, balance: by("balance") };
  }
  // No header: a signed amount and the balance after it, the balance last.
  const [first, second] = amounts;
  if (amounts.length >= 2) return { row, date, amount: first!, sign: first!.signed ? (first!.cents < 0 ? -1 : 1) : null, balance: amounts[amounts.length - 1]! };
  return { row, date, amount: first ?? null, sign: first?.signed ? (first.cents < 0 ? -1 : 1) : null, balance: second ?? null };
}
