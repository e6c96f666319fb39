// Compares the visual zone with the MRZ. The two are printed in different fonts and read
// separately, so a difference only counts when it cannot be a reading or a spelling
// rule: names are compared as letter skeletons after ICAO-style transliteration (MÜLLER
// may be MULLER or MUELLER) and without K/L/C (the letters OCR makes of '<'), a name the
// MRZ truncated only as a prefix, document numbers modulo look-alike characters, dates
// in any reading the visual format allows.
import type { MrzLayout, MrzReading } from "./mrz-read.ts";
import type { LabelledValue } from "./fields.ts";
import { findDates, readings } from "./read-date.ts";
import { repairDigits, touchesRepair } from "./read-digits.ts";
import { characterReadings, digitsReadSurely } from "./text.ts";
import { CONFUSED_DIGITS, FILLER_LOOK_ALIKES, foldWideLetters, ZONE_LETTER_TO_DIGIT } from "./look-alikes.ts";

export interface Mismatch {
  field: "name" | "surname" | "documentNumber" | "birthDate" | "expiryDate";
  visual: string;
  mrz: string;
  value: LabelledValue;
}

const TRANSLITERATIONS: [RegExp, string, string][] = [
  // [character, ICAO 9303 Part 3 form, plain form]
  [/Ä/g, "AE", "A"],
  [/Ö/g, "OE", "O"],
  [/Ü/g, "UE", "U"],
  [/Å/g, "AA", "A"],
  [/Ø/g, "OE", "O"],
  [/Æ/g, "AE", "AE"],
  [/Œ/g, "OE", "OE"],
  [/ß/g, "SS", "SS"],
  [/Þ/g, "TH", "TH"],
  [/Ð/g, "D", "D"],
  [/Ñ/g, "NXX", "N"],
];

/**
 * Letters only, K/L/C dropped, W as V and RN as M: what survives OCR's '<' and wide-letter misreads
 * and separators.
 */
const FILLER = new RegExp(`[${FILLER_LOOK_ALIKES.join("")}]`, "g");
const skeleton = (text: string) => foldWideLetters(text.replace(/[^A-Z]/g, "")).replace(FILLER, "");

function nameForms(visual: string): string[] {
  const upper = visual.toUpperCase();
  const forms = [1, 2].map((which) => {
    let out = upper;
    for (const [re, icao, plain] of TRANSLITERATIONS) out = out.replace(re, which === 1 ? icao : plain);
    return skeleton(out.normalize("NFD").replace(/\p{M}+/gu, ""));
  });
  return [...new Set(forms)];
}

/**
 * Whether the zone's first name may have lost this letter, its first, to the reading. Where the
 * name opens its line (a TD1 card's third line), a box that began late loses any first letter.
 * Where it follows the issuing state, a character the recogniser lost earlier in the line shifts
 * the name's first letter into the state: a recaptured Azerbaijani passport's zone, PCAZE
 * AXUNDOV, was read with the state AEA and the surname XUNDOV, and its page accused of a
 * mismatch (0.95). That letter is then the state's last.
 */
type FirstLetterLost = (letter: string) => boolean;
/** A name no late box or shift explains: France's card, and every name after the first. */
const NONE_LOST: FirstLetterLost = () => false;
const firstLetterLost = (reading: MrzReading): FirstLetterLost =>
  reading.layout === "TD1"
    ? () => true
    : reading.layout === "FRA-ID"
      ? NONE_LOST
      : (letter) => reading.lines[0]![4] === letter;

/** Shortest name a reading cut off at its end may leave (ZEYNEP read ZEYNE). */
const MIN_CUT_NAME = 4;
/**
 * Letters a recogniser drops between their neighbours: the narrow I (ELIF read ELF) and the
 * wide W, folded to V (a sample Canadian passport's zone, 410 pixels wide, read BROWN as BRON).
 */
const DROPPED_LETTERS = new Set(["I", "V"]);
/**
 * Whether two skeletons differ as OCR makes names differ: one dropped letter, or a name cut
 * short at its end by a box that ended early. Another letter lost or changed (BERTHIER,
 * BERTIER) is another name. `lostFirst`: whether the zone's first name may have lost this
 * first letter (FirstLetterLost).
 */
const readApart = (page: string, zone: string, lostFirst: FirstLetterLost): boolean => {
  const [short, long] = page.length <= zone.length ? [page, zone] : [zone, page];
  if (long.length - short.length !== 1 && !(short.length >= MIN_CUT_NAME && long.length - short.length <= 2))
    return false;
  if (short.length >= MIN_CUT_NAME && long.startsWith(short)) return true;
  if (zone.length >= MIN_CUT_NAME && page.length === zone.length + 1 && page.endsWith(zone) && lostFirst(page[0]!))
    return true;
  return (
    long.length - short.length === 1 &&
    [...long].some((c, i) => DROPPED_LETTERS.has(c) && long.slice(0, i) + long.slice(i + 1) === short)
  );
};

/**
 * Whether the names of one side are all among the other's, in any order: the zone may leave
 * out a name the page prints (a patronymic such as OGLU, a second surname), the page's field
 * may hold fewer names than the zone (one line of two read), and where there is no surname
 * (Malay names) the page and the zone order the names differently. Only a name on each side
 * that the other lacks is a disagreement. The zone's last name may be cut short when the
 * field is full, and a name may be read short as OCR reads names short (readApart).
 */
function namesNest(visual: string, nameField: string, truncated: boolean, lostFirst: FirstLetterLost): boolean {
  const page = visual
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(nameForms);
  const zone = nameField.split(/<+/).map(skeleton).filter(Boolean);
  const same = (forms: string[], name: string, i: number) =>
    forms.some(
      (f) =>
        f === name ||
        (i === zone.length - 1 && truncated && f.startsWith(name)) ||
        readApart(f, name, i === 0 ? lostFirst : NONE_LOST),
    );
  const zoneInPage = zone.every((name, i) => page.some((forms) => same(forms, name, i)));
  const pageInZone = page.every((forms) => zone.some((name, i) => same(forms, name, i)));
  return page.length > 0 && zone.length > 0 && (zoneInPage || pageInZone);
}

/**
 * The zone's name field, surname first: one region in ICAO layouts; on the French card the
 * surname (first line) and the given names (second line) joined as ICAO joins them.
 */
const NAME_FIELD: Record<MrzLayout, (lines: string[]) => string> = {
  TD1: (lines) => lines[2]!,
  TD2: (lines) => lines[0]!.slice(5),
  TD3: (lines) => lines[0]!.slice(5),
  "MRV-A": (lines) => lines[0]!.slice(5),
  "MRV-B": (lines) => lines[0]!.slice(5),
  "FRA-ID": (lines) => `${lines[0]!.slice(5, 30).replace(/<+$/, "")}<<${lines[1]!.slice(13, 27)}`,
};

/**
 * The document number as the card prints it. France's card prints the 12 characters its zone
 * opens with (issue year and month, office, sequence), which the mrz package splits into fields,
 * its `documentNumber` field the last five; the whole is its `documentNumber` only where every
 * check digit held.
 */
const printedNumber = (reading: MrzReading): string | null | undefined =>
  reading.layout === "FRA-ID"
    ? reading.lines[1]!.slice(0, 12)
    : (reading.result.documentNumber ?? reading.result.fields.documentNumber);

// Each look-alike letter folds into its digit (look-alikes.ts), lowercase l as the 1 it is
// read for before case is folded (an upper-case L is no 1); W read as V or VV, M as RN: one
// class each.
const lookAlikeFold = (text: string) =>
  foldWideLetters(
    text
      .replace(/l/g, "I")
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, ""),
  ).replace(/[A-Z]/g, (c) => ZONE_LETTER_TO_DIGIT[c] ?? c);

/**
 * Visual dates read at least this surely are compared when no digit confusion explains a
 * difference.
 */
const LOOSE_DATE_OCR = 0.8;
const oneConfusedDigit = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false;
  const differing = [...a].flatMap((c, i) => (c === b[i] ? [] : [[c, b[i]!].sort().join("-")]));
  return differing.length === 1 && CONFUSED_DIGITS.has(differing[0]!);
};

const checkValid = (reading: MrzReading, field: string) => reading.checks.some((c) => c.field === field && c.valid);

/** Differences between confidently read visual values and the MRZ reading. */
export function compareWithVisual(
  reading: MrzReading,
  values: readonly LabelledValue[],
  referenceYear: number,
): Mismatch[] {
  const confident = values.filter((v) => v.confident);
  const first = (kind: LabelledValue["kind"]) => confident.find((v) => v.kind === kind);
  const mismatches: Mismatch[] = [];

  const nameField = NAME_FIELD[reading.layout](reading.lines);
  const truncated = !nameField.endsWith("<");
  const lostFirst = firstLetterLost(reading);
  const mrzName = skeleton(nameField.replace(/</g, ""));
  // ICAO 9303 (Part 3, 4.6) always writes a primary identifier, a single name included. A name
  // field that opens with the filler was read from a line that shifted (a sample passport's zone
  // that leaves out its issuing state, its surname read as the state) and names no one.
  const named = /^[A-Z]/.test(nameField) && mrzName !== "";
  const mrzDisplay = nameField.replace(/<+$/, "").replace(/<+/g, " ").trim();
  const surname = first("surname");
  const given = first("givenNames");
  if (surname && given && named) {
    const forms = nameForms(surname.text).flatMap((s) => nameForms(given.text).map((g) => s + g));
    const agrees =
      forms.some((v) => v === mrzName || (truncated && v.startsWith(mrzName))) ||
      namesNest(`${surname.text} ${given.text}`, nameField, truncated, lostFirst);
    if (!agrees && forms.some((v) => v.length > 0)) {
      mismatches.push({ field: "name", visual: `${surname.text} ${given.text}`, mrz: mrzDisplay, value: surname });
    }
  } else if (surname && named) {
    const forms = nameForms(surname.text);
    const agrees =
      forms.some((v) => mrzName.startsWith(v) || (truncated && v.startsWith(mrzName))) ||
      namesNest(surname.text, nameField, truncated, lostFirst);
    if (!agrees && forms.some((v) => v.length > 0))
      mismatches.push({ field: "surname", visual: surname.text, mrz: mrzDisplay, value: surname });
  }

  const documentNumber = first("documentNumber");
  const mrzNumber = printedNumber(reading);
  if (documentNumber && mrzNumber && checkValid(reading, "documentNumber")) {
    const visual = lookAlikeFold(documentNumber.text);
    const mrz = lookAlikeFold(mrzNumber);
    if (
      visual.length >= 5 &&
      visual !== mrz &&
      !(visual.length > mrz.length && mrz.length >= 9 && visual.startsWith(mrz))
    ) {
      mismatches.push({ field: "documentNumber", visual: documentNumber.text, mrz: mrzNumber, value: documentNumber });
    }
  }

  for (const [kind, field, futureYears] of [
    ["birthDate", "birthDate", 0],
    ["expiryDate", "expirationDate", 30],
  ] as const) {
    // A date read less surely still counts when no digit OCR confuses explains the
    // difference: a retyped field in another font is exactly what OCR reads less surely.
    const value = first(kind) ?? values.find((v) => v.kind === kind && v.line.confidence >= LOOSE_DATE_OCR);
    const mrzDate = reading.result.fields[field];
    if (!value || !mrzDate || !/^\d{6}$/.test(mrzDate) || !checkValid(reading, field)) continue;
    const { text, repaired } = repairDigits(value.text, value.line.source);
    const match = findDates(text)[0];
    if (!match || touchesRepair(repaired, match.index, match.text.length)) continue;
    // Every digit read beyond doubt: no confusion then explains a difference, however unsurely
    // the label beside it was read (a photographed passport's "Date of expiry (8)" at 0.899 over
    // a date read at 0.995). The span touches no repaired digit, so the line holds its digits.
    const offset = value.line.text.indexOf(value.text);
    const sure = offset >= 0 && digitsReadSurely(value.line, offset + match.index, match.text.length);
    // Where the recogniser described the digits, they alone say whether one was misread: a digit
    // read at 0.6 with the zone's as runner-up is in doubt however well the rest of the line
    // read. Without that, the lines' confidence is all there is.
    const loose = characterReadings(value.line) ? !sure : !value.confident;
    const options = { referenceYear, futureYears };
    const visualDates = readings(match, null, options);
    if (visualDates.length === 0) continue;
    const asMrz = visualDates.map(
      (d) =>
        `${String(d.year % 100).padStart(2, "0")}${String(d.month).padStart(2, "0")}${String(d.day).padStart(2, "0")}`,
    );
    const agrees = asMrz.includes(mrzDate);
    if (!agrees && !(loose && asMrz.some((date) => oneConfusedDigit(date, mrzDate))))
      mismatches.push({ field: kind, visual: match.text, mrz: mrzDate, value });
  }
  return mismatches;
}
