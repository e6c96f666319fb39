// Finding and reading a machine-readable zone the way OCR delivers it. Off-the-shelf OCR
// turns '<' into K, L, C or '«', drops or adds filler, inserts spaces and confuses O/0,
// I/1, B/8, S/5, Z/2, G/6, T/7. Each position of an ICAO 9303 zone has a known kind (digit,
// letter, either), so most confusions have one right answer; where a position may hold
// either, single substitutions are tried and kept only when they make more check digits
// agree. The `mrz` package parses and computes the check digits of every variant.
import { parse, type ParseResult } from "mrz";
import { meanConfidence, rowsOf, unionBox, type DocumentText, type TextLine } from "./text.ts";
import type { Box } from "../report.ts";
import { FILLER_LOOK_ALIKES, ZONE_DIGIT_TO_LETTER, ZONE_LETTER_TO_DIGIT } from "./look-alikes.ts";

/**
 * ICAO 9303's layouts, and France's national identity card of 1988-2021 ("FRA-ID"): two
 * lines of 36 like TD2, but laid out and checked by French rules (surname and an
 * administrative code on the first line; a 12-character number with the issue date,
 * given names, birth date, sex and a composite on the second; no expiry).
 */
export type MrzLayout = "TD1" | "TD2" | "TD3" | "MRV-A" | "MRV-B" | "FRA-ID";

export interface MrzCandidate {
  page: number;
  /** The layout the rows' lengths suggest first. */
  layout: MrzLayout;
  /**
   * Layouts also within reach of the lengths read. OCR drops runs of filler ('<<<<' comes
   * back shorter), so a 44-character zone may be read at 38; each is tried and the check
   * digits decide.
   */
  alternatives: MrzLayout[];
  /** The zone's rows as read, one string per MRZ line. */
  raw: string[];
  /** The text lines the zone was read from. */
  lines: TextLine[];
  box: Box;
  /** Mean line confidence, PDF text counting as 1. */
  confidence: number;
  source: "pdf" | "ocr";
}

export interface CheckDigit {
  field: string;
  label: string;
  valid: boolean;
  printed: string;
  /**
   * A check digit position holds a digit or, where the field may be empty, filler. Filler
   * where a digit must stand is filler the reading lost or padded in, not a printed value.
   */
  read: boolean;
  /** The digit the field's content gives, when the parser says. */
  computed?: string;
}

export interface MrzReading {
  layout: MrzLayout;
  /** The corrected zone. */
  lines: string[];
  result: ParseResult;
  checks: CheckDigit[];
  /** Characters changed from what was read, filler added or removed aside. */
  corrections: number;
  /** Of those, the ones that were guesses rather than given by the position. */
  substitutions: number;
  /** Filler characters added or removed to reach the layout's line length. */
  lengthFixes: number;
}

const LINE_LENGTH: Record<MrzLayout, number> = { TD1: 30, TD2: 36, TD3: 44, "MRV-A": 44, "MRV-B": 36, "FRA-ID": 36 };

// Kind of every position: A letter (document code, state, sex), N name, D digit
// (dates, check digits), X letter or digit (document number, optional data).
const r = (kind: string, n: number) => kind.repeat(n);
const KINDS: Record<MrzLayout, string[]> = {
  TD1: [`${r("A", 5) + r("X", 9)}D${r("X", 15)}`, `${r("D", 7)}A${r("D", 7)}${r("A", 3)}${r("X", 11)}D`, r("N", 30)],
  TD2: [r("A", 5) + r("N", 31), `${r("X", 9)}D${r("A", 3)}${r("D", 7)}A${r("D", 7)}${r("X", 7)}D`],
  TD3: [r("A", 5) + r("N", 39), `${r("X", 9)}D${r("A", 3)}${r("D", 7)}A${r("D", 7)}${r("X", 14)}DD`],
  "MRV-A": [r("A", 5) + r("N", 39), `${r("X", 9)}D${r("A", 3)}${r("D", 7)}A${r("D", 7)}${r("X", 16)}`],
  "MRV-B": [r("A", 5) + r("N", 31), `${r("X", 9)}D${r("A", 3)}${r("D", 7)}A${r("D", 7)}${r("X", 8)}`],
  // Issue year and month, department (Corsica's are 2A and 2B), sequence number, check digit.
  "FRA-ID": [r("A", 5) + r("N", 25) + r("X", 6), `${r("D", 4) + r("X", 3) + r("D", 5)}D${r("N", 14)}${r("D", 7)}AD`],
};

/**
 * Visas carry no composite and no personal-number check digit; what sits there is optional data.
 */
const JUDGED_ON_VISAS = new Set(["documentNumberCheckDigit", "birthDateCheckDigit", "expirationDateCheckDigit"]);

/**
 * Where a digit (or filler) must stand: a look-alike letter is its digit, a filler look-alike '<'.
 */
const TO_DIGIT: Readonly<Record<string, string>> = {
  ...ZONE_LETTER_TO_DIGIT,
  ...Object.fromEntries(FILLER_LOOK_ALIKES.map((c) => [c, "<"])),
};
/** Where a letter must stand. */
const TO_LETTER = ZONE_DIGIT_TO_LETTER;
/** Alternatives tried where a letter or a digit may stand. */
const EITHER: Readonly<Record<string, string>> = { ...ZONE_LETTER_TO_DIGIT, ...ZONE_DIGIT_TO_LETTER };
/** The filler look-alikes (K, L, C) as the body of a character class. */
const FILLERS = FILLER_LOOK_ALIKES.join("");
const FILLER_LOOK_ALIKES_AFTER_FILLER = new RegExp(`(?<=<)[${FILLERS}]{1,2}(?=<|$)`, "g");
const TRAILING_FILLER = new RegExp(`<[<${FILLERS}]*$`);
const FILLER_RUN = new RegExp(`[<${FILLERS}]*<[<${FILLERS}]*`, "g");
const ANY_FILLER_LOOK_ALIKE = new RegExp(`[${FILLERS}]`);
const FILLER_BESIDE_LOOK_ALIKE = new RegExp(`<.*[${FILLERS}]|[${FILLERS}].*<`);

/** Upper case, no spaces, the chevron look-alikes as '<', stray punctuation gone. */
function toMrzChars(text: string): string {
  return (
    text
      .replace(/[l|]/g, "I")
      .toUpperCase()
      .replace(/[«»‹›≪≫〈〉⟨⟩＜([{]/g, "<")
      .replace(/[×✕╳]/g, "X")
      .replace(/[\s.,'`"’‘_:;-]/g, "")
      // A character OCR could not place beside filler is filler it garbled.
      .replace(/(?<=<)[^A-Z0-9<]|[^A-Z0-9<](?=<)/g, "<")
  );
}

const MRZ_SHAPED = /^[A-Z0-9<]+$/;

/**
 * A row that may be a zone line: nearly all MRZ characters, with filler or a run of digits.
 * Text detection often ends a line's box where its trailing filler starts, so a row of a
 * zone may come back far shorter than the zone; such a row must show filler.
 */
function mrzLike(text: string): boolean {
  if (text.length > 50 || text.length < MIN_SHORT_ROW) return false;
  if (text.length < MIN_ROW && !text.includes("<")) return false;
  if (!text.includes("<") && (text.match(/\d/g)?.length ?? 0) < 8) return false;
  let valid = 0;
  for (const c of text) if (MRZ_SHAPED.test(c)) valid++;
  return valid / text.length >= 0.9;
}

/** The longest row of a zone must reach this; the others may be cut short by lost filler. */
const MIN_ROW = 22;
const MIN_SHORT_ROW = 12;

/**
 * Layouts the rows' lengths allow, nearest first. OCR loses filler far more often than it
 * invents characters, so the longest row decides, and a layout longer than it stays in reach.
 */
function layoutsOf(lengths: number[]): MrzLayout[] {
  const longest = Math.max(...lengths);
  if (longest < MIN_ROW) return [];
  const reach: [MrzLayout, number, number][] =
    lengths.length === 3
      ? [["TD1", 30, 33]]
      : lengths.length === 2
        ? [
            ["TD2", 36, 39],
            ["TD3", 44, 48],
          ]
        : [];
  return reach
    .filter(([, length, most]) => longest <= most && longest >= length - 14)
    .sort((a, b) => Math.abs(longest - a[1]) - Math.abs(longest - b[1]))
    .map(([layout]) => layout);
}

const asVisa = (layout: MrzLayout): MrzLayout => (layout === "TD3" ? "MRV-A" : layout === "TD2" ? "MRV-B" : layout);

/** The French card's first line: its document code and state, '1' read for 'I' allowed. */
const FRENCH_ID = /^[I1]DFRA/;
/** ICAO 9303 document codes begin with P (passports), V (visas), or I, A, C (cards). */
const DOCUMENT_CODE = /^[PVIAC]/;
/**
 * A name field holds letters. OCR reads some as look-alike digits (0 for O, 1 for I...),
 * rarely many and rarely a digit that looks like no letter: beyond these it is text of
 * another kind.
 */
const MAX_UNLIKE_DIGITS_IN_NAME = 2;
const MAX_DIGIT_SHARE_IN_NAME = 1 / 3;

/**
 * Whether rows are shaped like a zone beyond their characters: a document code, an
 * issuing state of letters or filler, and a name field of letters (the third line of a
 * TD1, the first line's rest otherwise). Account numbers, references and codes of an
 * invoice read in MRZ-like characters have none of these.
 */
function zoneShaped(rows: string[]): boolean {
  const first = rows[0]!;
  const state = [...first.slice(2, 5)].map((c) => TO_LETTER[c] ?? c).join("");
  if (!DOCUMENT_CODE.test(first.replace(/^1/, "I")) || !/^[A-Z<]{3}$/.test(state)) return false;
  const name = (rows.length === 3 ? rows[2]! : first.slice(5, 30)).replace(/</g, "");
  const digits = name.match(/\d/g) ?? [];
  const unlike = digits.filter((d) => TO_LETTER[d] === undefined).length;
  return unlike <= MAX_UNLIKE_DIGITS_IN_NAME && digits.length <= name.length * MAX_DIGIT_SHARE_IN_NAME;
}

/** The machine-readable zones in a document: runs of 2 or 3 MRZ-shaped rows. */
export function findMrz(document: DocumentText): MrzCandidate[] {
  const found: MrzCandidate[] = [];
  for (const page of document.pages) {
    const rows = rowsOf(page).map((row) => {
      const chars = toMrzChars(row.cells.map((c) => c.text).join(""));
      return { row, chars, like: mrzLike(chars) };
    });
    let i = rows.length - 1;
    // From the bottom up: the zone is at the foot of the page, and a run of MRZ-shaped
    // rows longer than the zone is more likely text above it than a fourth line.
    while (i >= 1) {
      const window = [3, 2]
        .map((n) => rows.slice(i - n + 1, i + 1))
        .find(
          (w) =>
            w.length >= 2 &&
            w.every((x) => x.like) &&
            w.some((x) => x.chars.includes("<<")) &&
            layoutsOf(w.map((x) => x.chars.length)).length > 0 &&
            zoneShaped(w.map((x) => x.chars)),
        );
      if (!window) {
        i--;
        continue;
      }
      const isVisa = window[0]!.chars.startsWith("V");
      // Passport booklets carry TD3 zones (ICAO 9303 part 4): a P zone read short is a TD3 that
      // lost filler.
      const isPassport = window[0]!.chars.startsWith("P");
      const layouts = layoutsOf(window.map((x) => x.chars.length)).sort(
        (a, b) => Number(isPassport && b === "TD3") - Number(isPassport && a === "TD3"),
      );
      // A French card's two lines are the length of a TD2's: its own layout, not a broken TD2.
      const french = window.length === 2 && FRENCH_ID.test(window[0]!.chars) && layouts.includes("TD2");
      const [layout, ...alternatives] = french
        ? (["FRA-ID"] as MrzLayout[])
        : layouts.map((l) => (isVisa ? asVisa(l) : l));
      const lines = window.flatMap((x) => x.row.cells);
      found.push({
        page: page.page,
        layout: layout!,
        alternatives,
        raw: window.map((x) => x.chars),
        lines,
        box: unionBox(lines.map((l) => l.box)),
        confidence: meanConfidence(lines),
        source: lines.every((l) => l.source === "pdf") ? "pdf" : "ocr",
      });
      i -= window.length;
    }
  }
  return found;
}

/** Ways to bring a line to its length by growing or shrinking one filler run (or the end). */
function lengthVariants(line: string, length: number): string[] {
  const delta = length - line.length;
  if (delta === 0) return [line];
  // Longest runs first: OCR loses or adds filler where there is most of it.
  const runs = [...line.matchAll(/<+/g)]
    .map((m) => ({ start: m.index, end: m.index + m[0].length }))
    .sort((a, b) => b.end - b.start - (a.end - a.start));
  const variants = new Set<string>();
  for (const run of runs) {
    if (delta > 0) variants.add(line.slice(0, run.end) + "<".repeat(delta) + line.slice(run.end));
    else if (run.end - run.start >= -delta) variants.add(line.slice(0, run.start) + line.slice(run.start - delta));
  }
  if (delta > 0) variants.add(line + "<".repeat(delta));
  return [...variants].slice(0, 8);
}

const isDigitChar = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const isLetterChar = (c: string | undefined) => c !== undefined && c >= "A" && c <= "Z";
const isPlainDigit = (c: string | undefined) => isDigitChar(c) && EITHER[c!] === undefined;

/** Applies the corrections each position's kind makes unambiguous. */
function byKind(line: string, kinds: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const kind = kinds[i];
    if (kind === "D" && TO_DIGIT[c]) out += TO_DIGIT[c];
    else if ((kind === "A" || kind === "N") && TO_LETTER[c]) out += TO_LETTER[c];
    // Where either may stand, a look-alike letter between two plain digits is a digit (a
    // neighbour that is itself a look-alike, like 0 for O, decides nothing), and K/L/C
    // between fillers (or after one at the end) is filler: genuine numbers hold neither.
    else if (
      kind === "X" &&
      EITHER[c] &&
      isDigitChar(EITHER[c]) &&
      isPlainDigit(line[i - 1]) &&
      isPlainDigit(line[i + 1])
    )
      out += EITHER[c];
    else out += c;
  }
  out = out.replace(FILLER_LOOK_ALIKES_AFTER_FILLER, (run, offset: number) =>
    [...run].every((_, k) => kinds[offset + k] === "X") ? "<".repeat(run.length) : run,
  );
  // A name ends in filler: from the first '<' of its trailing run, K/L/C are misread '<'.
  return kinds.endsWith("N") ? out.replace(TRAILING_FILLER, (tail) => "<".repeat(tail.length)) : out;
}

interface Substitution {
  line: number;
  start: number;
  text: string;
}

/**
 * Plausible misreads where a letter or a digit may stand. A letter is read back as a
 * digit only beside a digit, a digit as a letter only beside a letter: a forger's digit
 * among digits offers no such way out. (The composite check digit is no second opinion
 * here: it weighs the document number with the same weights as its own check digit.)
 */
function substitutions(lines: string[], kinds: string[]): Substitution[] {
  const out: Substitution[] = [];
  lines.forEach((line, li) => {
    const lineKinds = kinds[li]!;
    for (let i = 0; i < line.length; i++) {
      if (lineKinds[i] !== "X") continue;
      const c = line[i]!;
      const neighbours = [line[i - 1], line[i + 1]];
      const alternative = EITHER[c];
      if (alternative !== undefined) {
        const wanted = isDigitChar(alternative) ? neighbours.some(isDigitChar) : neighbours.some(isLetterChar);
        if (wanted) out.push({ line: li, start: i, text: alternative });
      }
      if (FILLER_LOOK_ALIKES.includes(c) && neighbours.includes("<")) out.push({ line: li, start: i, text: "<" });
    }
    // A run of filler partly misread as K/L/C, within one letter-or-digit segment.
    for (const m of line.matchAll(FILLER_RUN)) {
      let start = m.index;
      let end = m.index + m[0].length;
      while (start < end && lineKinds[start] !== "X") start++;
      while (end > start && lineKinds[end - 1] !== "X") end--;
      const span = line.slice(start, end);
      if (ANY_FILLER_LOOK_ALIKE.test(span) && FILLER_BESIDE_LOOK_ALIKE.test(span))
        out.push({ line: li, start, text: "<".repeat(span.length) });
    }
  });
  return out;
}

function apply(lines: string[], subs: Substitution[]): string[] {
  return lines.map((line, li) =>
    subs
      .filter((s) => s.line === li)
      .reduce((text, s) => text.slice(0, s.start) + s.text + text.slice(s.start + s.text.length), line),
  );
}

const overlap = (a: Substitution, b: Substitution) =>
  a.line === b.line && a.start < b.start + b.text.length && b.start < a.start + a.text.length;

function judge(lines: string[], layout: MrzLayout): { result: ParseResult; checks: CheckDigit[] } | null {
  let result: ParseResult;
  try {
    result = parse(lines);
  } catch {
    return null;
  }
  const visa = layout === "MRV-A" || layout === "MRV-B";
  const checks = result.details
    .filter((d) => d.field?.endsWith("CheckDigit") && (!visa || JUDGED_ON_VISAS.has(d.field)))
    .map((d) => {
      const printed = lines[d.line]?.slice(d.start, d.end) ?? "";
      return {
        field: d.field!.replace(/CheckDigit$/, ""),
        label: d.label,
        valid: d.valid,
        printed,
        read: d.valid || /^\d$/.test(printed),
        computed: d.error?.match(/Must be (\d)/)?.[1],
      };
    });
  return { result, checks };
}

/** Agreeing check digits first, then fields that parse (a zone has far fewer than 100). */
const rank = (r: MrzReading) =>
  r.checks.filter((c) => c.valid).length * 100 + r.result.details.filter((d) => d.valid).length;

/** Ranks readings: by `rank`, then fewest length fixes and guesses. */
function better(a: MrzReading, b: MrzReading): boolean {
  const ranks = rank(a) - rank(b);
  if (ranks !== 0) return ranks > 0;
  if (a.lengthFixes !== b.lengthFixes) return a.lengthFixes < b.lengthFixes;
  return a.substitutions < b.substitutions;
}

/** Parses one zone may cost at most: a bound on hostile or hopelessly noisy input (~0.1 s). */
const PARSE_BUDGET = 3000;

/** The best reading of a zone: the layout and variant with the most check digits that agree. */
export function readMrz(candidate: MrzCandidate): MrzReading | null {
  let best: MrzReading | null = null;
  // Across layouts only the check digits and fields decide; on a tie (an empty optional
  // field reads alike in TD2 and TD3) the layout the zone suggests first stands.
  for (const layout of [candidate.layout, ...candidate.alternatives]) {
    const reading = readAs(candidate, layout);
    if (reading && (!best || rank(reading) > rank(best))) best = reading;
  }
  return best;
}

function readAs(candidate: MrzCandidate, layout: MrzLayout): MrzReading | null {
  const length = LINE_LENGTH[layout];
  const kinds = KINDS[layout];
  const perLine = candidate.raw.map((line) => lengthVariants(line, length));
  if (perLine.some((v) => v.length === 0)) return null;
  const combinations = perLine.reduce<string[][]>(
    (acc, variants) => acc.flatMap((prefix) => variants.map((v) => [...prefix, v])),
    [[]],
  );
  const lengthFixes = candidate.raw.reduce((sum, line) => sum + Math.abs(line.length - length), 0);
  let best: MrzReading | null = null as MrzReading | null;
  let budget = PARSE_BUDGET;
  const consider = (lines: string[], read: string[], substitutionCount: number) => {
    if (budget-- <= 0) return;
    const judged = judge(lines, layout);
    if (!judged) return;
    const corrections = lines.reduce((n, line, i) => n + [...line].filter((c, k) => c !== read[i]![k]).length, 0);
    const reading: MrzReading = {
      layout,
      lines,
      ...judged,
      corrections,
      substitutions: substitutionCount,
      lengthFixes,
    };
    if (!best || better(reading, best)) best = reading;
  };
  for (const combination of combinations.slice(0, 64)) {
    const base = combination.map((line, i) => byKind(line, kinds[i]!));
    consider(base, combination, 0);
    // PDF text holds the characters themselves: nothing to guess beyond the layout.
    // Then one or two plausible misreads, tried only while some check digit disagrees.
    if (candidate.source !== "ocr" || best?.checks.every((c) => c.valid)) continue;
    const singles = substitutions(base, kinds);
    singles.forEach((first, i) => {
      consider(apply(base, [first]), combination, 1);
      for (const second of singles.slice(i + 1))
        if (!overlap(first, second)) consider(apply(base, [first, second]), combination, 2);
    });
  }
  return best;
}
