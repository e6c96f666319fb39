// Judging a sum read from a document. A difference is evidence only when no plausible
// misreading explains it: one character of a value not read with near certainty, two of a
// value not read confidently (or whose separators OCR garbled). A forger's change of a
// whole amount is further from the truth than that; a blurred digit is not. Otherwise it
// lowers coverage instead, the same trap as the MRZ's check digits.
import { distance } from "fastest-levenshtein";
import type { Amount } from "./read-amount.ts";
import { isConfident, isSure } from "./text.ts";

/** 0.01 per operation: rounding on the issuer's side, never more. */
export const CENTS_PER_OPERATION = 1;

/** Below this OCR confidence a value is a guess whatever its digits say. */
const GUESSED_OCR = 0.75;

export type Outcome = "agrees" | "uncertain" | "differs";

/** Edits (a digit changed, dropped or added) between the digit strings of two values. */
const digitEdits = (a: number, b: number): number => distance(String(Math.abs(a)), String(Math.abs(b)));

/**
 * Compares an expected value with a found one. `inputs` are every amount involved, the
 * found one included: the outcome is uncertain when misreading one of them could explain
 * the difference.
 */
export function judge(expected: number, found: number, operations: number, inputs: readonly Amount[]): Outcome {
  const difference = found - expected;
  if (Math.abs(difference) <= CENTS_PER_OPERATION * Math.max(1, operations)) return "agrees";
  // Read this unsurely, a value may be two stacked lines taken for one, or anything else.
  if (inputs.some((a) => a.line.confidence < GUESSED_OCR)) return "uncertain";
  const misread = (a: Amount, edits: number) => digitEdits(a.cents, a.cents + difference) <= edits || digitEdits(a.cents, a.cents - difference) <= edits;
  if (inputs.some((a) => (!isConfident(a.line) || a.repaired) && misread(a, 2))) return "uncertain";
  if (inputs.some((a) => !isSure(a.line) && misread(a, 1))) return "uncertain";
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
