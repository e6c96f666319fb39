// The arithmetic of financial documents: a statement's opening balance plus each
// transaction must give each running balance and the closing balance, its totals must
// sum its columns; a payslip's or bill's items must sum to their totals and gross minus
// deductions must give net. Differences within 0.01 per operation are rounding; a
// difference an OCR misread could explain lowers coverage instead of raising a flag, and
// so does every check of figures that were not understood (understood.ts).
import type { DetectorResult, Evidence } from "../report.ts";
import { judge, Tally } from "./arithmetic.ts";
import { formatCents, type Amount } from "./read-amount.ts";
import { dayNumber, inferOrder, readings, type DateMatch } from "./read-date.ts";
import { readStatement, type StatedBalance, type Statement, type Transaction } from "./statement.ts";
import { checkSums } from "./sums.ts";
import type { DocumentText, Row } from "./text.ts";
import {
  type Agreement,
  type Checked,
  readSurely,
  TABLE_AGREEMENT,
  TOTALS_AGREEMENT,
  type Understanding,
  understood,
} from "./understood.ts";
import type { DetectorName } from "../manifest.ts";

export const BALANCES_DETECTOR = "balances" satisfies DetectorName;
const STRENGTH = 0.7;

interface Finding extends Checked {
  row: Row;
  message: string;
  expected: number;
  found: number;
}

export interface BalanceCheckOptions {
  /** Places two-digit years in their century. */
  now: Date;
}

/** One set of figures judged together: a statement's table, or a document's totals. */
interface Part {
  name: string;
  findings: Finding[];
  understanding: Understanding;
}

/** A break read unsurely could be the reading's, not the document's. */
const surely = (f: Finding): Finding =>
  f.outcome === "differs" && !readSurely(f.inputs) ? { ...f, outcome: "uncertain" } : f;

function part(name: string, findings: Finding[], agreement: Agreement, unknownLayout?: string): Part {
  const sure = findings.map(surely);
  return {
    name,
    findings: sure,
    understanding: unknownLayout ? { judged: false, reason: unknownLayout } : understood(sure, agreement),
  };
}

/**
 * Runs the balance and total checks over a document's text lines. A statement's table and
 * a document's totals accuse only where they were understood (understood.ts); otherwise
 * their checks lower coverage and the facts say why they were not judged.
 */
export function checkBalances(document: DocumentText, options: BalanceCheckOptions): DetectorResult {
  const statement = readStatement(document);
  const parts: Part[] = [];
  if (statement) {
    const findings = statementFindings(statement, options.now.getUTCFullYear());
    const identified = statement.namedColumns || statement.transactions.some((t) => t.amount?.signed);
    parts.push(
      part(
        "statement",
        findings,
        TABLE_AGREEMENT,
        identified ? undefined : "no header names its amount columns and no amount carries a sign",
      ),
    );
  }
  const sums = checkSums(document).map(
    (sum): Finding => ({ ...sum, message: `"${sum.label}" does not equal the amounts it totals` }),
  );
  if (sums.length > 0) parts.push(part("totals", sums, TOTALS_AGREEMENT));
  const tally = new Tally();
  const evidence: Evidence[] = [];
  for (const { findings, understanding } of parts) {
    for (const finding of findings) {
      tally.add(understanding.judged ? finding.outcome : "uncertain");
      if (!understanding.judged || finding.outcome !== "differs") continue;
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
  }
  const unjudged = parts.flatMap((p) => (p.understanding.judged ? [] : [`${p.name}: ${p.understanding.reason}`]));
  if (parts.length === 0) unjudged.push("no statement table, totals or net pay to add up");
  return {
    detector: BALANCES_DETECTOR,
    evidence,
    facts: {
      statement: statement !== null,
      transactions: statement?.transactions.length ?? 0,
      judged: unjudged.length === 0,
      ...(unjudged.length > 0 ? { reason: unjudged.join("; ") } : {}),
      checked: tally.judged,
      uncertain: tally.uncertain,
      mismatches: evidence.length,
    },
    coverage: tally.coverage,
    measurements: { uncertainFindings: tally.uncertain },
  };
}

/** Statements list transactions oldest first or newest first; the dates tell which. */
function listedNewestFirst(statement: Statement, referenceYear: number): boolean {
  const dated = statement.transactions.flatMap((t) => (t.date ? [t.date] : []));
  if (dated.length === 0) return false;
  const order = inferOrder(dated);
  const day = (date: DateMatch) => {
    const reading = readings(date, order, { referenceYear })[0];
    return reading ? dayNumber(reading) : null;
  };
  const first = day(dated[0]!);
  const last = day(dated[dated.length - 1]!);
  return first !== null && last !== null && first > last;
}

const STATED_MESSAGE: Record<StatedBalance["kind"], string> = {
  opening: "The opening balance is not the balance before it",
  forward: "The balance carried forward is not the previous balance plus the transactions",
  closing: "The closing balance is not the opening balance plus the transactions",
};

interface Running {
  cents: number;
  inputs: Amount[];
  operations: number;
}

type Step = { transaction: Transaction } | { stated: StatedBalance };

/**
 * The table in the order its money moved: the opening balances, the transactions and the
 * balances carried and brought forward between them, the closing balances.
 */
function stepsOf(statement: Statement, referenceYear: number): Step[] {
  const forward = statement.stated.filter((s) => s.kind === "forward");
  const middle: Step[] = [];
  statement.transactions.forEach((transaction, i) => {
    for (const stated of forward) if (stated.after === i) middle.push({ stated });
    middle.push({ transaction });
  });
  for (const stated of forward) if (stated.after >= statement.transactions.length) middle.push({ stated });
  const kind = (k: StatedBalance["kind"]): Step[] =>
    statement.stated.filter((s) => s.kind === k).map((stated) => ({ stated }));
  return [
    ...kind("opening"),
    ...(listedNewestFirst(statement, referenceYear) ? middle.reverse() : middle),
    ...kind("closing"),
  ];
}

function statementFindings(statement: Statement, referenceYear: number): Finding[] {
  const findings: Finding[] = [];
  const { transactions } = statement;
  // The running balance and every amount it was computed from since the last printed one.
  let running: Running | null = null;
  /** Judges `found` against each expectation, keeping the one it fits best. */
  const compare = (from: Running, expectations: number[], found: Amount, row: Row, message: string) => {
    const inputs = [...from.inputs, found];
    const judged = expectations.map((expected) => ({
      expected,
      outcome: judge(expected, found.cents, from.operations, inputs),
    }));
    const best =
      judged.find((j) => j.outcome === "agrees") ?? judged.find((j) => j.outcome === "uncertain") ?? judged[0]!;
    findings.push({ ...best, inputs, row, message, found: found.cents });
  };
  for (const step of stepsOf(statement, referenceYear)) {
    if ("stated" in step) {
      const { stated } = step;
      if (running) compare(running, [running.cents], stated.balance, stated.row, STATED_MESSAGE[stated.kind]);
      running = { cents: stated.balance.cents, inputs: [stated.balance], operations: 0 };
      continue;
    }
    const t = step.transaction;
    const movement = t.amount && t.sign !== null ? t.sign * Math.abs(t.amount.cents) : null;
    if (t.balance && running && t.amount) {
      const through = { ...running, inputs: [...running.inputs, t.amount], operations: running.operations + 1 };
      // No sign given: the balance must move by the amount, one way or the other (the way it
      // moved first: a misread balance may seem to move the other way).
      const away = (t.balance.cents >= running.cents ? 1 : -1) * Math.abs(t.amount.cents);
      compare(
        through,
        movement !== null ? [running.cents + movement] : [running.cents + away, running.cents - away],
        t.balance,
        t.row,
        movement !== null
          ? "The balance after this transaction is not the previous balance plus the transaction"
          : "The balance after this transaction does not move by the transaction's amount",
      );
    }
    if (t.balance) running = { cents: t.balance.cents, inputs: [t.balance], operations: 0 };
    else if (running && movement !== null && t.amount) {
      running = {
        cents: running.cents + movement,
        inputs: [...running.inputs, t.amount],
        operations: running.operations + 1,
      };
    } else running = null;
  }
  // A column sums only when every transaction's amount was read and placed in a column.
  const sided = transactions.every((t) => t.amount && t.sign !== null);
  for (const total of statement.totals) {
    const column = transactions.filter((t) => t.amount && t.sign === (total.column === "debit" ? -1 : 1));
    if (!sided || column.length === 0) continue;
    const expected = column.reduce((sum, t) => sum + Math.abs(t.amount!.cents), 0);
    const inputs = [total.amount, ...column.map((t) => t.amount!)];
    findings.push({
      outcome: judge(expected, Math.abs(total.amount.cents), column.length, inputs),
      inputs,
      row: total.row,
      message: `The total of ${total.column}s is not the sum of the ${total.column} column`,
      expected,
      found: Math.abs(total.amount.cents),
    });
  }
  return findings;
}
