// Strings written by a second hand. A generator writes every text-showing operator of a
// page the same way: hex or literal strings, hex digits in one letter case, TJ arrays of
// one shape (PDFKit closes each with a kerning number, pdf-lib writes hex Tj). An editor
// that rewrites shown strings in place writes its own way, so on a page whose operators
// agree but for a few, the few sitting between the others are what was edited. A stamp
// or a watermark added by a second tool forms a block of its own (its own stream, the
// start or end of one) and is not accused. Letter case and array shape are habits of the
// writer, judged across the page; hex versus literal can follow the font (CID fonts are
// written in hex), so it is judged per font.
import { mupdf } from "../../pdf/mupdf.ts";
import type { Budget } from "../detector.ts";
import type { Box, DetectorResult, Evidence } from "../report.ts";
import { readOperations, type Operand, type Operation, type PdfString } from "./content-tokens.ts";
import { child, nameAt } from "./objects.ts";
import type { PageContent } from "./page-content.ts";
import type { DetectorName } from "../manifest.ts";

export const PDF_TEXT_OPERATORS_DETECTOR = "pdf-text-operators" satisfies DetectorName;

/** Fewer operators sharing a habit than this say nothing about the writer. */
const MIN_OPERATORS = 12;
/** The habit must hold for this share of the operators before exceptions mean anything. */
const MIN_MAJORITY = 0.75;
const STRENGTH = 0.5;
/** Evidence items per page; further differing operators are counted in the last one. */
const MAX_EVIDENCE_PER_PAGE = 20;
/** Decoded content read per page: the operators of a statement page fit in far less. */
const MAX_CONTENT_BYTES = 8_000_000;

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

interface ShownString {
  stream: number;
  /** Position of the operator among the text-showing operators of its stream. */
  order: number;
  font: string;
  /** Start of the string in the page's device space (points, origin top-left). */
  at: [number, number];
  size: number;
  habits: Partial<Record<Habit, string>>;
}

type Habit = "hexCase" | "arrayEnd" | "encoding";

const HABIT_WORDS: Record<Habit, string> = {
  hexCase: "hex digits in a different letter case",
  arrayEnd: "a TJ array of a different shape",
  encoding: "a different string encoding for its font",
};

const isString = (o: Operand | undefined): o is PdfString => typeof o === "object" && o.type === "string";
const num = (o: Operand | undefined): number => (typeof o === "number" ? o : 0);

function habitsOf(op: string, operands: Operand[]): Partial<Record<Habit, string>> | undefined {
  let strings: PdfString[];
  let arrayEnd: string | undefined;
  if (op === "TJ") {
    const array = operands.at(-1);
    if (typeof array !== "object" || array.type !== "array" || array.items.length === 0) return undefined;
    strings = array.items.filter(isString);
    // A closing 0 is a writer's mark (PDFKit ends every array so); a closing non-zero number
    // is a kerning adjustment after the last glyph, which follows the text, not the writer:
    // WeasyPrint and others end most arrays with a string and some with a kern, and those
    // were taken for a second hand on genuine e-invoices.
    const last = array.items.at(-1);
    arrayEnd = typeof last !== "number" ? "string" : last === 0 ? "zero" : undefined;
  } else {
    const last = operands.at(-1);
    if (!isString(last)) return undefined;
    strings = [last];
  }
  if (strings.length === 0) return undefined;
  const hex = strings.filter((s) => s.hex);
  // A writer may switch to hex for bytes outside printable ASCII (accents, glyph ids):
  // the encoding is a habit only where both ways were open to it.
  const encoding = !strings.every(printable)
    ? undefined
    : hex.length === strings.length
      ? "hex"
      : hex.length === 0
        ? "literal"
        : "mixed";
  const digits = hex.map((s) => s.raw).join("");
  const upper = /[A-F]/.test(digits);
  const lower = /[a-f]/.test(digits);
  const hexCase = upper && lower ? "mixed" : upper ? "upper" : lower ? "lower" : undefined;
  return { ...(encoding ? { encoding } : {}), ...(hexCase ? { hexCase } : {}), ...(arrayEnd ? { arrayEnd } : {}) };
}

const PRINTABLE = /^[\x20-\x7e]*$/;
const printable = (s: PdfString): boolean =>
  s.hex
    ? PRINTABLE.test(Buffer.from(s.raw.length % 2 ? `${s.raw}0` : s.raw, "hex").toString("latin1"))
    : PRINTABLE.test(s.raw) && !/\\[0-7]/.test(s.raw);

const multiply = (a: Matrix, b: Matrix): Matrix => mupdf.Matrix.concat(a, b) as Matrix;
const apply = (m: Matrix, x: number, y: number): [number, number] => [
  x * m[0] + y * m[2] + m[4],
  x * m[1] + y * m[3] + m[5],
];
const matrixOf = (operands: Operand[]): Matrix => operands.slice(-6).map(num) as Matrix;

/**
 * Follows the graphics and text state far enough to place each shown string (q/Q, cm,
 * BT, Tm, Td, TD, T*, TL, Tf); form XObjects are not entered.
 */
function shownStrings(
  ops: Operation[],
  stream: number,
  page: Matrix,
  fontKey: (name: string) => string,
  out: ShownString[],
): void {
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let leading = 0;
  let font = "";
  let size = 0;
  let order = 0;
  const nextLine = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };
  for (const { op, operands } of ops) {
    switch (op) {
      case "q":
        if (stack.length < 64) stack.push(ctm);
        break;
      case "Q":
        ctm = stack.pop() ?? ctm;
        break;
      case "cm":
        ctm = multiply(matrixOf(operands), ctm);
        break;
      case "BT":
        tm = tlm = IDENTITY;
        break;
      case "Tm":
        tm = tlm = matrixOf(operands);
        break;
      case "Td":
        nextLine(num(operands.at(-2)), num(operands.at(-1)));
        break;
      case "TD":
        leading = -num(operands.at(-1));
        nextLine(num(operands.at(-2)), num(operands.at(-1)));
        break;
      case "TL":
        leading = num(operands.at(-1));
        break;
      case "T*":
        nextLine(0, -leading);
        break;
      case "Tf": {
        const name = operands.at(-2);
        font = typeof name === "object" && name.type === "name" ? fontKey(name.name) : "";
        size = num(operands.at(-1));
        break;
      }
      case "Tj":
      case "TJ":
      case "'":
      case '"': {
        if (op === "'" || op === '"') nextLine(0, -leading);
        const habits = habitsOf(op, operands);
        if (!habits) break;
        const device = multiply(multiply(tm, ctm), page);
        const scale = Math.hypot(device[2], device[3]) || 1;
        out.push({ stream, order: order++, font, at: apply(device, 0, 0), size: Math.abs(size) * scale, habits });
        break;
      }
    }
  }
}

/**
 * What identifies a font across resource names: pdf-lib gives every drawing its own name for one
 * font object.
 */
function fontKeys(resources: mupdf.PDFObject): (name: string) => string {
  const fonts = child(resources, "Font");
  const cache = new Map<string, string>();
  return (name) => {
    let key = cache.get(name);
    if (key === undefined) {
      const font = child(fonts, name);
      key = font.isNull()
        ? `missing:${name}`
        : font.isIndirect()
          ? `object:${font.asIndirect()}`
          : `font:${nameAt(font, "BaseFont") ?? name}`;
      if (cache.size < 1_000) cache.set(name, key);
    }
    return key;
  };
}

function readPageStrings(doc: mupdf.PDFDocument, index: number): ShownString[] {
  const page = doc.loadPage(index);
  try {
    const object = page.getObject();
    const contents = object.get("Contents");
    const streams = contents.isArray()
      ? Array.from({ length: Math.min(contents.length, 1_000) }, (_, i) => contents.get(i))
      : [contents];
    const keyOf = fontKeys(object.getInheritable("Resources"));
    const transform = page.getTransform() as Matrix;
    const out: ShownString[] = [];
    let budget = MAX_CONTENT_BYTES;
    streams.forEach((stream, i) => {
      if (!stream.isStream() || budget <= 0) return;
      const bytes = stream.readStream().asUint8Array().subarray(0, budget);
      budget -= bytes.length;
      shownStrings(readOperations(bytes), i, transform, keyOf, out);
    });
    return out;
  } finally {
    page.destroy();
  }
}

interface Finding {
  shown: ShownString;
  habits: Habit[];
}

/** The strings that break a habit the page holds, and whether the page held any habit at all. */
function findings(strings: ShownString[]): { judged: boolean; found: Finding[] } {
  const found = new Map<ShownString, Habit[]>();
  let judged = false;
  const judge = (habit: Habit, group: ShownString[]) => {
    const counts = new Map<string, number>();
    for (const s of group) counts.set(s.habits[habit]!, (counts.get(s.habits[habit]!) ?? 0) + 1);
    const [majority, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    if (group.length < MIN_OPERATORS || count / group.length < MIN_MAJORITY) return;
    judged = true;
    // Written in the middle of the habit: strings of the habit come before and after it in its
    // stream.
    const span = new Map<number, [number, number]>();
    for (const s of group) {
      if (s.habits[habit] !== majority) continue;
      const [first, last] = span.get(s.stream) ?? [Infinity, -Infinity];
      span.set(s.stream, [Math.min(first, s.order), Math.max(last, s.order)]);
    }
    for (const s of group) {
      const [first, last] = span.get(s.stream) ?? [Infinity, -Infinity];
      if (s.habits[habit] === majority || s.order < first || s.order > last) continue;
      found.set(s, [...(found.get(s) ?? []), habit]);
    }
  };
  for (const habit of ["hexCase", "arrayEnd"] as const) {
    const group = strings.filter((s) => s.habits[habit] !== undefined);
    if (group.length > 0) judge(habit, group);
  }
  const byFont = new Map<string, ShownString[]>();
  for (const s of strings) {
    if (s.habits.encoding === undefined) continue;
    const group = byFont.get(s.font);
    if (group) group.push(s);
    else byFont.set(s.font, [s]);
  }
  for (const group of byFont.values()) judge("encoding", group);
  return { judged, found: [...found].map(([shown, habits]) => ({ shown, habits })) };
}

/** The text line the string starts in, else a box one text size high at its start. */
function boxOf(shown: ShownString, page: PageContent | undefined): Box {
  const [x, y] = shown.at;
  const line = page?.lines.find(
    (l) => x >= l.box[0] - 1 && x <= l.box[0] + l.box[2] && y >= l.box[1] - 1 && y <= l.box[1] + l.box[3] + 1,
  );
  if (line) return line.box;
  const size = Math.max(1, Math.round(shown.size));
  return [Math.round(x), Math.round(y - size), size, size];
}

/**
 * Judges the first `maxPages` pages; `pages` (read beforehand) give the strings their text lines'
 * boxes.
 */
export const detectTextOperators = (
  doc: mupdf.PDFDocument,
  pages: PageContent[],
  maxPages: number,
  budget: Budget,
): DetectorResult => {
  const pageCount = doc.countPages();
  const evidence: Evidence[] = [];
  let read = 0;
  let judgedPages = 0;
  let operators = 0;
  for (let i = 0; i < Math.min(pageCount, maxPages) && !budget.expired(); i++) {
    const strings = readPageStrings(doc, i);
    read++;
    operators += strings.length;
    const { judged, found } = findings(strings);
    if (judged) judgedPages++;
    const page = pages.find((p) => p.page === i + 1);
    found.slice(0, MAX_EVIDENCE_PER_PAGE).forEach(({ shown, habits }, n) => {
      const more = n === MAX_EVIDENCE_PER_PAGE - 1 ? found.length - MAX_EVIDENCE_PER_PAGE : 0;
      evidence.push({
        flag: "text_inconsistency",
        detector: PDF_TEXT_OPERATORS_DETECTOR,
        strength: STRENGTH,
        message: `A string is written unlike the page's other text operators: ${habits.map((h) => HABIT_WORDS[h]).join(", ")}${more > 0 ? ` (${more} more such strings not listed)` : ""}`,
        page: i + 1,
        box: boxOf(shown, page),
        measured: `${found.length} of ${strings.length} operators`,
        threshold: `habit held by ≥ ${MIN_MAJORITY * 100}% of ≥ ${MIN_OPERATORS} operators`,
      });
    });
  }
  return {
    detector: PDF_TEXT_OPERATORS_DETECTOR,
    evidence,
    facts: { pagesRead: read, judgedPages, operators, differing: evidence.length },
    // Pages with too few text operators (scans, short letters) and pages left unread cannot be
    // judged.
    coverage: pageCount === 0 ? 0 : judgedPages / pageCount,
  };
};
