// Dates as documents print them: "12 JAN 1985", "12 JAN/JANV 85", "Jan 12, 2024",
// "31 de diciembre de 2025", "1er mars 2025", "12.01.1985", "12/01/85", "31-12-2025",
// "2024-01-12", month names in English, German, French, Dutch, Spanish and Italian. A
// numeric date with both parts ≤ 12 has two readings (day/month or month/day); the caller
// decides which order the document uses, inferOrder says which it implies.
// Hand-written: date libraries parse one locale's format at a time and silently roll
// 31 Feb over into March, which is exactly what must be noticed here.

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export type DateOrder = "dmy" | "mdy";

export interface DateMatch {
  text: string;
  index: number;
  /** Month given by name (or ISO order): only one reading. */
  fixed: boolean;
  first: number;
  second: number;
  /** Four-digit year as printed, or two digits. */
  year: number;
  twoDigitYear: boolean;
  /** A month named before its day ("December 31, 2025"): how American documents write. */
  monthFirst?: boolean;
}

// Month names of the languages documents reach us in (en, de, fr, nl, es, it), folded. A
// word is a month when it begins one of them ("DEC", "DÉC.", "SEPT", "JANV") or is one of
// the abbreviations that begin none ("MRZ", "MRT"); "MAYONNAISE" before a price is not May.
const MONTH_NAMES: string[][] = [
  ["JANUARY", "JANUAR", "JANNER", "JANVIER", "JANUARI", "ENERO", "GENNAIO"],
  ["FEBRUARY", "FEBRUAR", "FEVRIER", "FEBRUARI", "FEBRERO", "FEBBRAIO"],
  ["MARCH", "MARZ", "MAERZ", "MARS", "MAART", "MARZO"],
  ["APRIL", "AVRIL", "ABRIL", "APRILE"],
  ["MAY", "MAI", "MEI", "MAYO", "MAGGIO"],
  ["JUNE", "JUNI", "JUIN", "JUNIO", "GIUGNO"],
  ["JULY", "JULI", "JUILLET", "JULIO", "LUGLIO"],
  ["AUGUST", "AOUT", "AUGUSTUS", "AGOSTO"],
  ["SEPTEMBER", "SEPTEMBRE", "SEPTIEMBRE", "SETIEMBRE", "SETTEMBRE"],
  ["OCTOBER", "OKTOBER", "OCTOBRE", "OCTUBRE", "OTTOBRE"],
  ["NOVEMBER", "NOVEMBRE", "NOVIEMBRE"],
  ["DECEMBER", "DEZEMBER", "DECEMBRE", "DICIEMBRE", "DICEMBRE"],
];
const MONTH_ABBREVIATIONS: Record<string, number> = { MRZ: 3, MRT: 3 };

function monthFromName(word: string): number | null {
  const folded = word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase();
  if (folded.length < 3) return null;
  const abbreviated = MONTH_ABBREVIATIONS[folded];
  if (abbreviated) return abbreviated;
  // "JUI" begins both JUIN and JUILLET: no month.
  const months = MONTH_NAMES.flatMap((names, index) =>
    names.some((name) => name.startsWith(folded)) ? [index + 1] : [],
  );
  return months.length === 1 ? months[0]! : null;
}

const MONTH_WORD = "(\\p{L}{3,10})\\.?(?:\\s*/\\s*\\p{L}{3,10}\\.?)?";
/** "1st", "2nd", "1er", "3º": the ordinal ending a day may carry. */
const ORDINAL = "(?:st|nd|rd|th|er|e|º|°)?";
const PATTERNS: { pattern: RegExp; read: (m: RegExpExecArray) => Omit<DateMatch, "text" | "index"> | null }[] = [
  {
    // 12 JAN 1985, 12-Jan-24, 12 JAN/JANV 85, 12. Januar 2024, 1er mars 2025, 31 de diciembre de
    // 2025, 12th of May 2025
    pattern: new RegExp(
      `(?<![\\p{L}\\d])(\\d{1,2})${ORDINAL}\\.?[\\s\\-/]*(?:(?:de|of)\\s+)?${MONTH_WORD}(?:\\s+de)?[\\s\\-/,]*(\\d{4}|\\d{2})(?!\\d)`,
      "giu",
    ),
    read: (m) => named(m[1]!, m[2]!, m[3]!, false),
  },
  {
    // Jan 12, 2024; December 31st, 2025
    pattern: new RegExp(`(?<![\\p{L}\\d])${MONTH_WORD}\\s+(\\d{1,2})${ORDINAL},?\\s+(\\d{4})(?!\\d)`, "giu"),
    read: (m) => named(m[2]!, m[1]!, m[3]!, true),
  },
  {
    // 2024-01-12, 2024/01/12, 2024.01.12
    pattern: /(?<![\d.,])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d])/g,
    read: (m) => ({ fixed: true, first: Number(m[4]), second: Number(m[3]), year: Number(m[1]), twoDigitYear: false }),
  },
  {
    // 12.01.1985, 12/01/85, 12-01-1985, 12 01 1985 (a space only with a four-digit year)
    pattern: /(?<![\d.,])(\d{1,2})([./-]|\s)(\d{1,2})\2(\d{4}|\d{2})(?![\d.,]\d|\d)/g,
    read: (m) => {
      if (m[2] === " " && m[4]!.length === 2) return null;
      return {
        fixed: false,
        first: Number(m[1]),
        second: Number(m[3]),
        year: Number(m[4]),
        twoDigitYear: m[4]!.length === 2,
      };
    },
  },
];

function named(
  day: string,
  monthWord: string,
  year: string,
  monthFirst: boolean,
): Omit<DateMatch, "text" | "index"> | null {
  const month = monthFromName(monthWord);
  if (month === null) return null;
  return {
    fixed: true,
    first: Number(day),
    second: month,
    year: Number(year),
    twoDigitYear: year.length === 2,
    monthFirst,
  };
}

/**
 * Every date in a piece of text, left to right, overlaps resolved in favour of the first pattern.
 */
export function findDates(text: string): DateMatch[] {
  const found: DateMatch[] = [];
  for (const { pattern, read } of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const end = m.index + m[0].length;
      if (found.some((f) => m.index < f.index + f.text.length && end > f.index)) continue;
      const parts = read(m as RegExpExecArray);
      if (parts) found.push({ text: m[0], index: m.index, ...parts });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function isValidDate(date: CalendarDate): boolean {
  return date.month >= 1 && date.month <= 12 && date.day >= 1 && date.day <= daysIn(date.year, date.month);
}

/**
 * A two-digit year in the century that keeps it at most `futureYears` after the
 * reference year: birth dates want 0, expiry and statement dates some slack.
 */
export function fullYear(twoDigits: number, referenceYear: number, futureYears: number): number {
  const century = Math.floor(referenceYear / 100) * 100;
  const candidate = century + twoDigits;
  return candidate > referenceYear + futureYears ? candidate - 100 : candidate;
}

export interface ReadOptions {
  referenceYear: number;
  futureYears?: number;
}

/** The date a match means in a given order, or null when that reading is no date. */
function interpret(match: DateMatch, order: DateOrder, options: ReadOptions): CalendarDate | null {
  const year = match.twoDigitYear ? fullYear(match.year, options.referenceYear, options.futureYears ?? 20) : match.year;
  const [day, month] = match.fixed || order === "dmy" ? [match.first, match.second] : [match.second, match.first];
  const date = { year, month, day };
  return isValidDate(date) ? date : null;
}

/** The readings a match can have when the document's order is known (or not). */
export function readings(match: DateMatch, order: DateOrder | null, options: ReadOptions): CalendarDate[] {
  if (match.fixed || order !== null) {
    const date = interpret(match, order ?? "dmy", options);
    return date ? [date] : [];
  }
  const both = [interpret(match, "dmy", options), interpret(match, "mdy", options)].filter(
    (d): d is CalendarDate => d !== null,
  );
  return both.length === 2 && compareDates(both[0]!, both[1]!) === 0 ? [both[0]!] : both;
}

/**
 * The order a set of dates implies: a part above 12 can only be a day. Where the numbers
 * leave it open (05/06/2025), the document's named dates do: one that writes "December 31,
 * 2025" is American and writes 12/31/2025; one that writes "31 December 2025" does not.
 */
export function inferOrder(matches: readonly DateMatch[]): DateOrder | null {
  let dmy = 0;
  let mdy = 0;
  let namedDayFirst = 0;
  let namedMonthFirst = 0;
  for (const m of matches) {
    if (m.fixed) {
      if (m.monthFirst === true) namedMonthFirst++;
      if (m.monthFirst === false) namedDayFirst++;
      continue;
    }
    if (m.first > 12 && m.second <= 12) dmy++;
    if (m.second > 12 && m.first <= 12) mdy++;
  }
  if (dmy === mdy) [dmy, mdy] = [namedDayFirst, namedMonthFirst];
  if (dmy === mdy) return null;
  return dmy > mdy ? "dmy" : "mdy";
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export const toIsoDate = (d: CalendarDate): string =>
  `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

export const fromUtc = (date: Date): CalendarDate => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
});

export const dayNumber = (d: CalendarDate): number => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;
