// The characters OCR returns for one another, in one table: every reader of OCR text (amounts
// and dates in read-digits.ts, the machine-readable zone in mrz-read.ts, its comparison with
// the visual fields in mrz-visual.ts) corrects by it.
//
// What is in it is what a recogniser confuses because the glyphs share their strokes, in the
// fonts documents are printed in: round O, D and Q against 0; a vertical stroke (I, lowercase
// l, a bar) against 1; Z, S, G and B against 2, 5, 6 and 8, whose strokes they close or open;
// T against 7, one bar over a stem. Lower and upper case are kept apart: lowercase l is the
// stroke read for a 1, uppercase L is not a 1 in any font, but it is what OCR returns for the
// zone's filler '<' in OCR-B (with K and C: the chevron's two strokes read as a letter's). So L
// belongs to the filler, and a reader that folds case must map l before it does. Between
// letters, the wide ones are split or merged: W read as V or VV, M as RN (foldWideLetters).
//
// One pair is kept out of free text: T between digits there is the ISO 8601 separator of a
// date and a time (2024-05-01T10:32), so only the zone, which holds no such text, reads it as 7.

interface LookAlike {
  /** The character OCR returned. */
  read: string;
  /** The digit it stands for. */
  digit: string;
  /** Only inside a machine-readable zone (see above). */
  zoneOnly?: true;
}

const LOOK_ALIKES: readonly LookAlike[] = [
  { read: "O", digit: "0" },
  { read: "o", digit: "0" },
  { read: "D", digit: "0" },
  { read: "Q", digit: "0" },
  { read: "I", digit: "1" },
  { read: "l", digit: "1" },
  { read: "|", digit: "1" },
  { read: "Z", digit: "2" },
  { read: "S", digit: "5" },
  { read: "G", digit: "6" },
  { read: "T", digit: "7", zoneOnly: true },
  { read: "B", digit: "8" },
];

/** Letters (and the bar) OCR returns for a digit, in running text: read-digits.ts. */
export const TEXT_LETTER_TO_DIGIT: Readonly<Record<string, string>> = Object.fromEntries(
  LOOK_ALIKES.filter((l) => !l.zoneOnly).map((l) => [l.read, l.digit]),
);

/**
 * Upper-case letters OCR returns for a digit in a machine-readable zone, whose alphabet is A-Z, 0-9
 * and '<'.
 */
export const ZONE_LETTER_TO_DIGIT: Readonly<Record<string, string>> = Object.fromEntries(
  LOOK_ALIKES.filter((l) => /^[A-Z]$/.test(l.read)).map((l) => [l.read, l.digit]),
);

/** The letter OCR returns for a digit in a zone: the first upper-case look-alike of each digit. */
export const ZONE_DIGIT_TO_LETTER: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ZONE_LETTER_TO_DIGIT)
    .reverse()
    .map(([letter, digit]) => [digit, letter]),
);

/** Letters OCR returns for the zone's filler '<' in OCR-B. */
export const FILLER_LOOK_ALIKES: readonly string[] = ["K", "L", "C"];

/**
 * Digits OCR takes for one another in print, as "a-b" pairs with the smaller digit first (the
 * order mrz-visual.ts looks them up in): it compares a zone's dates with the visual ones by them.
 */
export const CONFUSED_DIGITS: ReadonlySet<string> = new Set([
  "0-8",
  "0-6",
  "0-9",
  "1-7",
  "1-4",
  "3-8",
  "3-9",
  "3-5",
  "5-6",
  "6-8",
  "8-9",
  "2-7",
]);

/**
 * Wide letters OCR splits or merges, folded each into one class (upper-case text): W read as
 * V or VV, M as RN. Applied in this order, so a W read as VV and one read as V agree.
 */
export const foldWideLetters = (text: string): string =>
  text.replace(/W/g, "V").replace(/V+/g, "V").replace(/RN/g, "M");
