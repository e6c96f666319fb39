// Judging a sum read from a document. A difference is evidence only when no plausible
// misreading explains it: one character of a value not read with near certainty, two of a
// value not read confidently (or whose separators OCR garbled). A forger's change of a
// whole amount is further from the truth than that; a blurred digit is not. Otherwise it
// lowers coverage instead, the same trap as the MRZ's check digits.
// A forger who changes one digit (a glyph copied over another) leaves the same one-digit
// difference as a misreading, so where the recogniser says how it read each digit, a digit
// counts as misread only if it was read unsurely or the digit the sum needs was among its
// runners-up: a pasted 3 is read as a 3 beyond doubt, a blurred 8 read as 3 is not.
import { distance } from "fastest-levenshtein";
import { type Amount, amountDigitReadSurely } from "./read-amount.ts";
import { isConfident, isSure } from "./text.ts";

/** 0.01 per operation: rounding on the issuer's side, never more. */
const CENTS_PER_OPERATION = 1;

/** Below this OCR confidence a value is a guess whatever its digits say. */
const GUESSED_OCR = 0.75;

export type Outcome = "agrees" | "uncertain" | "differs";

/** A runner-up this probable is a digit the recogniser could have meant. */
const PLAUSIBLE_ALTERNATIVE = 0.02;

/**
 * Whether misreading at most `edits` digits of `a` (changed, dropped or added) could have
 * turned `truth` into what was read. A dropped or added digit is always possible; a changed
 * one, where the recogniser described it, only if the digit was unsure or `truth`'s digit
 * was among its runners-up.
 */
function couldBeMisread(a: Amount, truth: number, edits: number): boolean {
  const read = String(Math.abs(a.cents));
  const real = String(Math.abs(truth));
  if (distance(read, real) > edits) return false;
  if (read.length !== real.length || a.digitReadings.length < read.length) return true;
  const offset = a.digitReadings.length - read.length;
  for (let i = 0; i < read.length; i++) {
    const reading = a.digitReadings[offset + i];
    // A digit not read surely as a digit may be any digit.
    if (read[i] === real[i] || !reading || !amountDigitReadSurely(reading)) continue;
    if (!reading.alternatives.some((alt) => alt.character === real[i] && alt.probability >= PLAUSIBLE_ALTERNATIVE))
      return false;
  }
  return true;
}

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
  const misread = (a: Amount, edits: number) =>
    couldBeMisread(a, a.cents - difference, edits) || couldBeMisread(a, a.cents + difference, edits);
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
