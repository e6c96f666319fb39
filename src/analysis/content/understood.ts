// Whether a document's figures were understood well enough to accuse. Arithmetic that
// fails on a table read the wrong way (columns taken for one another, a locale's
// separators misread, rows of another layout) says nothing about the document: a break
// counts only where the rest of the same figures reconcile, so the reading is known to
// match the layout, and where the break itself was read surely. Otherwise the figures are
// "not judged": no flag, lower coverage.
import type { Outcome } from "./arithmetic.ts";
import { amountConfidence, type Amount, amountDigitReadSurely } from "./read-amount.ts";
import { CONFIDENT_OCR, characterReadings } from "./text.ts";

export interface Checked {
  outcome: Outcome;
  /** Every amount the check read, the one it found included. */
  inputs: readonly Amount[];
}

export type Understanding = { judged: true } | { judged: false; reason: string };

export interface Agreement {
  /** Checks that must add up before any may accuse. */
  reconciling: number;
  /** Share of the judged checks that must add up... */
  share: number;
  /** ...or this lower share, where at most `fewBreaks` checks break. */
  fewBreaks?: { count: number; share: number };
}

/**
 * A transaction table: a forged amount with the balances left breaks one or two checks
 * (its row and a column total) among a dozen that reconcile; a misread table breaks most.
 */
export const TABLE_AGREEMENT: Agreement = { reconciling: 3, share: 0.75 };
/**
 * A payslip's or bill's totals: two or three per document, so one that adds up beside
 * the one that breaks shows its blocks were read as laid out. A raised item breaks its
 * subtotal and the total due, two checks; more breaks than that must be few among many.
 * Measured: a published 25-page brokerage statement has 12 rows labelled as totals of other
 * figures than the rows above them; 6 added up and 6 broke, and half was not enough.
 */
export const TOTALS_AGREEMENT: Agreement = { reconciling: 1, share: 0.75, fewBreaks: { count: 2, share: 0.5 } };

/** Whether the checks of one table agree enough for its breaks to be evidence. */
export function understood(checks: readonly Checked[], agreement: Agreement): Understanding {
  const agrees = checks.filter((c) => c.outcome === "agrees").length;
  const differs = checks.filter((c) => c.outcome === "differs").length;
  if (agrees < agreement.reconciling)
    return {
      judged: false,
      reason: `${agrees} of its checks add up, fewer than ${agreement.reconciling}: the layout was not understood`,
    };
  const share =
    agreement.fewBreaks && differs <= agreement.fewBreaks.count ? agreement.fewBreaks.share : agreement.share;
  if (agrees / (agrees + differs) < share)
    return { judged: false, reason: `${differs} of ${agrees + differs} checks break: the layout was not understood` };
  return { judged: true };
}

/**
 * Every digit of a break read beyond doubt: PDF text, or OCR lines read confidently whose
 * digits the recogniser was sure of, none a look-alike letter taken for a digit (a digit
 * without a reading on a line that has them). A sidecar that describes no character leaves
 * the line's confidence to say. A separator misread (1.234.56) changes no digit, and a decimal
 * mark's doubt between comma and point no value (amountConfidence), nor a digit's doubt with a
 * letter (amountDigitReadSurely).
 */
export const readSurely = (inputs: readonly Amount[]): boolean =>
  inputs.every((a) => {
    if (a.line.source === "pdf") return true;
    const described = characterReadings(a.line) !== undefined;
    const confident = amountConfidence(a.line) >= CONFIDENT_OCR;
    return confident && a.digitReadings.every((d) => (d ? amountDigitReadSurely(d) : !described));
  });
