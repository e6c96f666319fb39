// OCR reads a digit as a look-alike letter (0→O, 1→I or l, 5→S, 8→B, 2→Z, 6→G: the table
// is look-alikes.ts). Inside a run of digits the letter cannot be meant, so it is read back
// as the digit, and the position is remembered: a value that needed it is a guess and may
// inform, never accuse.
import { TEXT_LETTER_TO_DIGIT } from "./look-alikes.ts";

export const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

export interface RepairedText {
  text: string;
  /** Indices (same in both strings) where a letter was read back as a digit. */
  repaired: Set<number>;
}

/** For PDF text nothing is repaired: the text layer holds the characters themselves. */
export function repairDigits(text: string, source: "pdf" | "ocr"): RepairedText {
  const repaired = new Set<number>();
  if (source === "pdf") return { text, repaired };
  const chars = [...text];
  if (chars.length !== text.length) return { text, repaired };
  for (let i = 0; i < chars.length; i++) {
    const digit = TEXT_LETTER_TO_DIGIT[chars[i]!];
    if (digit === undefined) continue;
    // A digit on both sides, or a digit on one side and a number separator on the other.
    const before = chars[i - 1];
    const after = chars[i + 1];
    const numericBefore = isDigit(before) || (/[.,]/.test(before ?? "") && isDigit(chars[i - 2]));
    const numericAfter = isDigit(after) || (/[.,]/.test(after ?? "") && isDigit(chars[i + 2]));
    if ((isDigit(before) && numericAfter) || (numericBefore && isDigit(after))) {
      chars[i] = digit;
      repaired.add(i);
    }
  }
  return { text: chars.join(""), repaired };
}

export const touchesRepair = (repaired: Set<number>, start: number, length: number): boolean => {
  for (let i = start; i < start + length; i++) if (repaired.has(i)) return true;
  return false;
};
