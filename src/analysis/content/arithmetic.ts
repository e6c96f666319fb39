// Judging a sum read from a document. A difference is evidence only when every value in
// it was read confidently; when OCR may have misread one digit of it (the values differ
// in a single digit and the line was not read with near certainty), it lowers coverage
// instead, the same trap as the MRZ's check digits.
import type { Amount } from "./read-amount.ts";
import { isConfident, isSure } from "./text.ts";

/** 0.01 per operation: rounding on the issuer's side, never more. */
export const CENTS_PER_OPERATION = 1;

export type Outcome = "agrees" | "uncertain" | "differs";

function oneDigitApart(a: number, b: number): boolean {
  const x = String(Math.abs(a));
  const y = String(Math.abs(b));
  if (x.length !== y.length) return false;
  let differences = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differences++;
  return differences === 1;
}

/**
 * Compares an expected value with a found one. `inputs` are every amount involved, the
 * found one included: any of them not read confidently, or one not read near-certainly
 * that a single different digit would put right, makes the outcome uncertain.
 */
export function judge(expected: number, found: number, operations: number, inputs: readonly Amount[]): Outcome {
  const difference = found - expected;
  if (Math.abs(difference) <= CENTS_PER_OPERATION * Math.max(1, operations)) return "agrees";
  if (inputs.some((a) => !isConfident(a.line) || a.repaired)) return "uncertain";
  const misreadDigit = (a: Amount) => oneDigitApart(a.cents, a.cents + difference) || oneDigitApart(a.cents, a.cents - difference);
  if (inputs.some((a) => !isSure(a.line) && misreadDigit(a))) return "uncertain";
  return "differs";
}

/** Tally of judged sums: coverage is the share that could be judged either way. */
export class Tally {
  judged = 0;
  uncertain = 0;
  add(outcome: Outcome): void {
    if (outcome === "uncertain") this.uncertain++;
    else this.judged++;
  }
  get coverage(): number {
    const all = this.judged + this.uncertain;
    return all === 0 ? 0 : this.judged / all;
  }
}
