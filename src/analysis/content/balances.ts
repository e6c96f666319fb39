// The arithmetic of financial documents: a statement's opening balance plus each
// transaction must give each running balance and the closing balance, its totals must
// sum its columns; a payslip's or bill's items must sum to their totals and gross minus
// deductions must give net. Differences within 0.01 per operation are rounding; a
// difference an OCR misread could explain lowers coverage instead of raising a flag.
import type { DetectorResult, Evidence } from "../report.ts";
import { judge, Tally, type Outcome } from "./arithmetic.ts";
import { formatCents, type Amount } from "./read-amount.ts";
import { dayNumber, inferOrder, readings, type DateMatch } from "./read-date.ts";
import { readStatement, type Statement, type Transaction } from "./statement.ts";
import { checkSums } from "./sums.ts";
import type { DocumentText, Row } from "./text.ts";

export const BALANCES_DETECTOR = "balances";
const STRENGTH = 0.7;

interface Finding {
  outcome: Outcome;
  row: Row;
  message: string;
  expected: number;
  found: number;
}

export interface BalanceCheckOptions {
  /** Places two-digit years in their century. */
  now: Date;
}

/** Runs the balance and total checks over a document's text lines. */
export function checkBalances(document: DocumentText, options: BalanceCheckOptions): DetectorResult {
  const statement = readStatement(document);
  const findings: Finding[] = [...(statement ? statementFindings(statement, options.now.getUTCFullYear()) : [])];
  for (const sum of checkSums(document)) {
    findings.push({ ...sum, message: `"${sum.label}" does not equal the amounts it totals` });
  }
  const tally = new Tally();
  const evidence: Evidence[] = [];
  for (const finding of findings) {
    tally.add(finding.outcome);
    if (finding.outcome !== "differs") continue;
    evidence.push({
      flag: "balance_mismatch",
      detector: BALANCES_DETECTOR,
      strength: STRENGTH,
      message: finding.message,
      page: finding.row.page,
      box: finding.row.box,
      measured: formatCents(finding.found),
      threshold: formatCents(finding.expected),
    });
  }
  return {
    detector: BALANCES_DETECTOR,
    evidence,
    facts: {
      statement: statement !== null,
      transactions: statement?.transactions.length ?? 0,
      checked: tally.judged,
      uncertain: tally.uncertain,
      mismatches: evidence.length,
    },
    coverage: tally.coverage,
  };
}

/** Statements list transactions oldest first or newest first; the dates tell which. */
function chronological(statement: Statement, referenceYear: number): Transaction[] {
  const dated = statement.transactions.flatMap((t) => (t.date ? [t.date] : []));
  if (dated.length === 0) return statement.transactions;
  const order = inferOrder(dated);
  const day = (date: DateMatch) => {
    const reading = readings(date, order, { referenceYear })[0];
    return reading ? dayNumber(reading) : null;
  };
  const first = day(dated[0]!);
  const last = day(dated[dated.length - 1]!);
  return first !== null && last !== null && first > last ? [...statement.transactions].reverse() : statement.transactions;
}

function statementFindings(statement: Statement, referenceYear: number): Finding[] {
  const findings: Finding[] = [];
  const transactions = chronological(statement, referenceYear);
  // The running balance and every amount it was computed from since the last printed one.
  let running: { cents: number; inputs: Amount[]; operations: number } | null = statement.opening
    ? { cents: statement.opening.balance.cents, inputs: [statement.opening.balance], operations: 0 }
    : null;
  for (const t of transactions) {
    const movement = t.amount && t.sign !== null ? t.sign * Math.abs(t.amount.cents) : null;
    if (t.balance && running && t.amount) {
      const inputs = [...running.inputs, t.amount, t.balance];
      if (movement !== null) {
        const expected = running.cents + movement;
        findings.push({
          outcome: judge(expected, t.balance.cents, running.operations + 1, inputs),
          row: t.row,
          message: "The balance after this transaction is not the previous balance plus the transaction",
          expected,
          found: t.balance.cents,
        });
      } else {
        // No sign given: the balance must move by the amount, one way or the other.
        const change = t.balance.cents - running.cents;
        const expected = running.cents + (change >= 0 ? 1 : -1) * Math.abs(t.amount.cents);
        findings.push({
          outcome: judge(expected, t.balance.cents, running.operations + 1, inputs),
          row: t.row,
          message: "The balance after this transaction does not move by the transaction's amount",
          expected,
          found: t.balance.cents,
        });
      }
    }
    if (t.balance) running = { cents: t.balance.cents, inputs: [t.balance], operations: 0 };
    else if (running && movement !== null && t.amount) {
      running = { cents: running.cents + movement, inputs: [...running.inputs, t.amount], operations: running.operations + 1 };
    } else running = null;
  }
  if (statement.closing && running) {
    findings.push({
      outcome: judge(running.cents, statement.closing.balance.cents, running.operations, [...running.inputs, statement.closing.balance]),
      row: statement.closing.row,
      message: "The closing balance is not the opening balance plus the transactions",
      expected: running.cents,
      found: statement.closing.balance.cents,
    });
  }
  // A column sums only when every transaction's amount was read and placed in a column.
  const sided = transactions.every((t) => t.amount && t.sign !== null);
  for (const total of statement.totals) {
    const column = transactions.filter((t) => t.amount && t.sign === (total.column === "debit" ? -1 : 1));
    if (!sided || column.length === 0) continue;
    const expected = column.reduce((sum, t) => sum + Math.abs(t.amount!.cents), 0);
    findings.push({
      outcome: judge(expected, Math.abs(total.amount.cents), column.length, [total.amount, ...column.map((t) => t.amount!)]),
      row: total.row,
      message: `The total of ${total.column}s is not the sum of the ${total.column} column`,
      expected,
      found: Math.abs(total.amount.cents),
    });
  }
  return findings;
}
