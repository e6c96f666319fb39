// Money as statements, payslips and bills print it: 1,234.56 · 1.234,56 · 1 234,56 ·
// 1'234.56 · -12.00 · (12.00) · 12.00- · 12.00 CR / DR · with or without a currency
// sign or code, before the figure or after it (1.234,56 € · (12.00 EUR) · 12.00 GBP DR).
// Only values with exactly two decimals count: that is what keeps dates, account numbers
// and quantities out. Values are integer cents so sums are exact.
import { isDigit, repairDigits, touchesRepair } from "./read-digits.ts";
import {
  type CharacterReading,
  characterReadings,
  isLetter,
  isReadSurely,
  SURE_CHARACTER,
  spansIn,
  type Row,
  type TextLine,
} from "./text.ts";

export interface Amount {
  /** Signed value in cents; negative for a minus, parentheses or DR. */
  cents: number;
  /** True when the sign came from the text (minus, parentheses, CR/DR). */
  signed: boolean;
  text: string;
  line: TextLine;
  /** Horizontal centre and right edge on the page, to place the value in a column. */
  x: number;
  right: number;
  /** Approximate width of one character of its line. */
  charWidth: number;
  /** A look-alike letter had to be read as a digit. */
  repaired: boolean;
  /**
   * The recogniser's view of each digit of `text`, left to right (leading zeros included);
   * null where it has none: PDF text, a repaired look-alike, a sidecar that sent none.
   */
  digitReadings: readonly (CharacterReading | null)[];
}

const CURRENCY = "(?:[$€£¥₹₣₤₺₽]|CHF|EUR|USD|GBP|R\\$|kr)";
// Integer part: grouped thousands (one kind of separator) or a plain run of digits.
const INTEGER = "(\\d{1,3}(?:([,.' \\u00a0\\u202f])\\d{3})(?:\\2\\d{3})*|\\d+)";
const AMOUNT_PATTERN = new RegExp(
  `(?<![\\w.,'])(\\()?\\s?([-+−])?\\s?${CURRENCY}?\\s?([-−])?\\s?${INTEGER}([.,])(\\d{2})(?![\\d]|[.,]\\d)(?:\\s?${CURRENCY}(?=\\s?(?:CR|DR|Cr|Dr)?(?![\\p{L}\\d])))?\\s?(\\))?(-(?!\\d))?\\s?(CR|DR|Cr|Dr)?(?![\\p{L}\\d])`,
  "gu",
);

/** The marks an amount's decimals may follow: AMOUNT_PATTERN takes either before two digits. */
const DECIMAL_MARKS: ReadonlySet<string> = new Set([",", "."]);

/**
 * A line's confidence with each comma or point counted as read by how surely it was a decimal
 * mark, either one. On a photo the two differ by a few pixels: PP-OCR then splits its belief
 * between them (",": 0.52, ".": 0.39), and the mean of a short cell like "57,47" falls under
 * CONFIDENT_OCR though every digit was read at 0.98 or more. Which mark was printed changes no
 * amount's value, so that doubt says nothing of the figures. A line without per-character
 * readings keeps its own confidence.
 */
export function amountConfidence(line: Pick<TextLine, "text" | "characters" | "source" | "confidence">): number {
  const readings = characterReadings(line);
  if (line.source === "pdf" || !readings || readings.length === 0) return line.confidence;
  // The line's confidence is its characters' mean: each mark's belief in the other mark is added.
  let credit = 0;
  readings.forEach((reading, i) => {
    const character = line.text[i]!;
    if (!DECIMAL_MARKS.has(character)) return;
    const other = reading.alternatives.find((alt) => alt.character !== character && DECIMAL_MARKS.has(alt.character));
    credit += Math.min(other?.probability ?? 0, 1 - reading.probability);
  });
  return Math.min(1, line.confidence + credit / readings.length);
}

/**
 * What a digit of an amount could be besides itself: another digit, or a mark printed between
 * or beside the digits (a decimal or group separator, a space, a trailing minus).
 */
const AMOUNT_CHARACTERS: ReadonlySet<string> = new Set([..."0123456789", ",", ".", "'", " ", "-"]);

/**
 * Whether a digit of an amount was read beyond doubt as that digit. What could make a break the
 * reading's and not the document's is the digit being another character an amount holds. A
 * glyph whose doubt is a letter keeps its value, since no letter stands in an amount: on a
 * statement photographed off a screen an 8 was read at 0.89 with B at 0.08 as runner-up, and
 * another digit at 0.004. The doubt counted is the belief in every runner-up that is no letter,
 * and, for each character an amount holds that the recogniser did not list (the digit itself
 * aside), at most its least listed runner-up's belief; a digit in more doubt than
 * SURE_CHARACTER leaves is in doubt, as before.
 */
export function amountDigitReadSurely(reading: CharacterReading): boolean {
  if (isReadSurely(reading)) return true;
  const listed = reading.alternatives;
  if (listed.length === 0) return false;
  const others = listed.filter((alt) => !isLetter(alt.character));
  const floor = Math.min(...listed.map((alt) => alt.probability));
  const listedInAmount = listed.filter((alt) => AMOUNT_CHARACTERS.has(alt.character)).length;
  const unlisted = AMOUNT_CHARACTERS.size - 1 - listedInAmount;
  const doubt = others.reduce((sum, alt) => sum + alt.probability, 0) + unlisted * floor;
  return doubt <= 1 - SURE_CHARACTER;
}

function parseAmountMatch(
  match: readonly (string | undefined)[],
): { cents: number; signed: boolean; misread: boolean } | null {
  const [, open, sign, innerSign, integer, groupSeparator, decimalSeparator, decimals, close, trailingMinus, crdr] =
    match;
  if (integer === undefined || decimals === undefined) return null;
  // 1.234.56 is no format anyone prints: OCR read the group comma as a point. Only the
  // last separator then stands before the cents, and the value is read, not known.
  const misread = groupSeparator !== undefined && groupSeparator === decimalSeparator;
  if (misread && groupSeparator !== ".") return null;
  if ((open === undefined) !== (close === undefined)) return null;
  const whole = Number(integer.replace(/[^\d]/g, ""));
  if (!Number.isSafeInteger(whole * 100)) return null;
  const magnitude = whole * 100 + Number(decimals);
  const minus =
    open !== undefined ||
    (sign && sign !== "+") ||
    innerSign !== undefined ||
    trailingMinus !== undefined ||
    /^dr$/i.test(crdr ?? "");
  const signed = minus || sign === "+" || crdr !== undefined;
  return { cents: minus ? -magnitude : magnitude, signed: Boolean(signed), misread };
}

/** Every amount in a row, left to right, with OCR look-alikes read back as digits. */
export function amountsIn(row: Row): Amount[] {
  const repairedCells = row.cells.map((line) => ({ line, ...repairDigits(line.text, line.source) }));
  const asRow: Row = { ...row, cells: repairedCells.map(({ line, text }) => ({ ...line, text })) };
  return spansIn(asRow, AMOUNT_PATTERN).flatMap((span) => {
    const parsed = parseAmountMatch([span.text, ...span.groups]);
    if (!parsed || (parsed.misread && span.line.source !== "ocr")) return [];
    const { misread, ...value } = parsed;
    const cell = repairedCells[asRow.cells.indexOf(span.line)]!;
    const charWidth = cell.line.box[2] / Math.max(1, cell.line.text.length);
    const right = cell.line.box[0] + charWidth * (span.index + span.text.trimEnd().length);
    const readings = characterReadings(cell.line);
    const digitReadings = [...span.text].flatMap((c, i) => {
      const at = span.index + i;
      return isDigit(c) ? [cell.repaired.has(at) ? null : (readings?.[at] ?? null)] : [];
    });
    return [
      {
        ...value,
        text: span.text.trim(),
        line: cell.line,
        x: span.x,
        right,
        charWidth,
        repaired: misread || touchesRepair(cell.repaired, span.index, span.text.length),
        digitReadings,
      },
    ];
  });
}

export const formatCents = (cents: number): string => {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};
