// The document type from what the analysis read: a machine-readable zone that names a
// holder (found the way OCR delivers it, so a misread filler does not hide it) names
// passports and ID cards; otherwise the cues of the text (PDF text layer or OCR rows, in
// six languages and identity titles in more, document-cues.ts), then the shape of the page
// or image (ID-1 cards and passport data pages have fixed ISO sizes). Text decides when it
// speaks; shape is the fallback for a page with little text. Where nothing decides, the
// type is unknown: a guess would send a document to the wrong checks. The basis names the
// cues that decided.
import { findMrz, type MrzCandidate } from "./content/mrz-read.ts";
import { fold, rowsOf, rowText, unionBox, type DocumentText, type Row } from "./content/text.ts";
import { findCues, isProse, type CueKind, type FoundCue } from "./document-cues.ts";
import type { DocumentType } from "./flags.ts";
import type { Box, DetectorResult } from "./report.ts";
import type { DetectorName } from "./manifest.ts";

const DOCUMENT_TYPE_DETECTOR = "document-type" satisfies DetectorName;

export interface DocumentTypeInput {
  /** Text lines read from the document (PDF text layer or OCR). */
  document?: DocumentText;
  /** All text read from the document, as one string. */
  text?: string;
  /** Size of the first page or of the image; any unit, only the ratio is used... */
  size?: { width: number; height: number };
  /** ...unless the size is in PDF points, when the physical size is checked too. */
  sizeInPoints?: boolean;
}

export interface DocumentTypeResult {
  documentType: DocumentType;
  basis: string;
}

/** Machine-readable zones that survived as text lines (a misread filler or two still match). */
const MRZ_PATTERNS: Array<{ type: "passport" | "id"; pattern: RegExp; label: string }> = [
  // A holder's name follows the issuing state: "PAYMENT<<<<<<<<" is a line of filler, not a zone.
  { type: "passport", pattern: /(^|\s)P[<A-Z][A-Z<]{3}(?=[A-Z<]{20,})[A-Z]*<{1,2}[A-Z]{2,}/m, label: "passport MRZ" },
  // A card's first line carries its document number and filler; OCR may read one letter
  // of the issuing state as a digit (SVN as S1<).
  {
    type: "id",
    pattern:
      /(^|\s)[ACI][A-Z<](?:[A-Z<]{3}|[A-Z<]{2}\d|[A-Z<]\d[A-Z<]|\d[A-Z<]{2})(?=[A-Z0-9]*<)(?=(?:[A-Z<]*\d){6})[A-Z0-9<]{25}(\s|$)/m,
    label: "ID card MRZ",
  },
  // The second line of a TD1 card zone (birth date, sex, expiry, nationality) is its own
  // signature: 30 characters no passport or visa line has, legible when the first line is
  // misread or cut short.
  {
    type: "id",
    pattern: /(^|\s)[0-9O]{6}[0-9O<][MF<][0-9O]{6}[0-9O<][A-Z0-9<]{3}[A-Z0-9<]{11}[0-9O<](\s|$)/m,
    label: "TD1 card MRZ",
  },
];

const IDENTITY_KINDS = ["passport", "id", "drivers_license"] as const;
const FINANCIAL_KINDS: CueKind[] = ["invoice", "receipt", "tax_form", "payslip", "statement"];
/**
 * Papers a utility bill is not. An invoice's words are not among them: a utility bill is an invoice
 * for a supply.
 */
const NOT_A_BILL: CueKind[] = ["receipt", "tax_form", "payslip", "statement"];
/**
 * Cues that name a paper by themselves (a title, balances, net pay); an IBAN or a direct debit on a
 * bill does not make it a statement.
 */
const STRONG = 2;
/**
 * A supply is billed when one cue that names it by itself, or two lesser ones, say so: "Energy" in
 * a supplier's name is not enough.
 */
const MIN_SUPPLY = 2;

/**
 * A paper is named by at least this much evidence from at least two cues: one word ("Salary",
 * "kWh") is a guess.
 */
const MIN_SCORE = 3;
const MIN_CUES = 2;
/**
 * A lone identity title decides only as a heading ("PERMIS DE CONDUIRE  REPUBLIQUE FRANCAISE"), not
 * inside a sentence that mentions a passport.
 */
const HEADING_WORDS = 6;
/**
 * Past this many words with nothing to say, a page's shape is no evidence of a card or
 * passport; unless the words are this many identity field labels (a card in a language
 * not read here, labelled "surname", "date of birth" in English too).
 */
const MAX_WORDS_FOR_SHAPE = 60;
const FIELDS_FOR_SHAPE = 3;

interface Tally {
  score: number;
  cues: FoundCue[];
}

const tallyOf = (cues: readonly FoundCue[], kinds: readonly CueKind[]): Tally => {
  const of = cues.filter((c) => kinds.includes(c.kind));
  return { score: of.reduce((sum, c) => sum + c.weight, 0), cues: of };
};

const explain = (cues: readonly FoundCue[]): string => cues.map((c) => `${c.label} (${c.word})`).join(", ");

const wordsIn = (row: string): number => row.split(/[^A-Z0-9]+/).filter((w) => w.length > 1).length;

/** A row to classify, and where it stands when the text came with its layout. */
interface ReadRow {
  text: string;
  place?: Place;
}

/** Where a row stands: its page and box, as content/text.ts groups rows. */
type Place = Pick<Row, "page" | "box">;

/**
 * How far beyond the area its identity cues span a row of sentences still counts against a
 * card or passport, as a share of that area's width and height.
 */
const PROSE_REACH = 0.25;

/** Whether a box reaches into an area grown by PROSE_REACH of its size. */
const reaches = ([x, y, w, h]: Box, [ax, ay, aw, ah]: Box): boolean => {
  const [dx, dy] = [aw * PROSE_REACH, ah * PROSE_REACH];
  return x < ax + aw + dx && x + w > ax - dx && y < ay + ah + dy && y + h > ay - dy;
};

/**
 * The rows of sentences that speak against an identity document: those that reach among its
 * identity cues. A card photographed on a newspaper or a magazine shares the frame with their
 * sentences, which say nothing of the card; a letter that quotes a surname under a passport
 * office's heading sets its sentences between and around its cues. Without the layout (plain
 * text) every sentence counts.
 */
const proseAround = (rows: readonly ReadRow[], prose: readonly ReadRow[], cues: readonly FoundCue[]): number => {
  const places = cues.map((c) => rows[c.index]?.place);
  if (!places.every((p): p is Place => p !== undefined) || prose.some((row) => !row.place)) return prose.length;
  const areas = new Map<number, Box>();
  for (const { page, box } of places) {
    const known = areas.get(page);
    areas.set(page, known ? unionBox([known, box]) : box);
  }
  return prose.filter(({ place }) => {
    const area = place && areas.get(place.page);
    return area !== undefined && reaches(place!.box, area);
  }).length;
};

/**
 * An identity document on identity evidence only: its title with a field label or a second
 * title (documents are often bilingual), at least as much of it as of any paper and more
 * of it than rows of sentences; or a title alone as a heading, where nothing names a paper
 * and nothing is a sentence. "Passport photo" on an invoice is not one, nor a sentence that
 * mentions a passport, nor a letter from a passport office quoting a surname.
 */
const identityFrom = (
  found: readonly FoundCue[],
  paperScore: number,
  rows: readonly ReadRow[],
  prose: readonly ReadRow[],
): DocumentTypeResult | undefined => {
  if (found.some((c) => c.kind === "letter")) return undefined;
  // "Please bring your passport or identity card" names no document.
  const cues = found.filter((c) => !c.prose);
  const titles = IDENTITY_KINDS.map((kind) => ({ kind, ...tallyOf(cues, [kind]) })).sort(
    (a, b) => b.score - a.score,
  )[0]!;
  if (titles.score === 0) return undefined;
  const identity = tallyOf(cues, [...IDENTITY_KINDS, "identity_field"]);
  const corroborated =
    identity.cues.length >= 2 &&
    identity.score >= paperScore &&
    identity.cues.length > proseAround(rows, prose, identity.cues);
  // A lone title has no extent of its own to set sentences apart from: any sentence counts.
  const heading = paperScore === 0 && prose.length === 0 && titles.cues.some((c) => wordsIn(c.row) <= HEADING_WORDS);
  if (!corroborated && !heading) return undefined;
  return { documentType: titles.kind, basis: `text: ${explain(identity.cues)}` };
};

const enough = (tally: Tally): boolean => tally.score >= MIN_SCORE && tally.cues.length >= MIN_CUES;

/** Which financial paper the cues speak for most: named in the basis, so an analyst sees why. */
const financialKind = (cues: readonly FoundCue[]): string =>
  FINANCIAL_KINDS.map((kind) => ({ kind, score: tallyOf(cues, [kind]).score }))
    .sort((a, b) => b.score - a.score)[0]!
    .kind.replace("_", " ");

/**
 * Papers: a bill for energy, water or telecommunications is a utility bill when its supply
 * weighs at least as much as what names a receipt, tax form, payslip or statement (a
 * statement lists electricity payments too); everything else financial is financial.
 */
const paperFrom = (cues: readonly FoundCue[]): DocumentTypeResult | undefined => {
  const supply = tallyOf(cues, ["utility"]);
  const strong = cues.filter((c) => c.weight >= STRONG);
  const rival = Math.max(...NOT_A_BILL.map((kind) => tallyOf(strong, [kind]).score));
  const bill = tallyOf(cues, ["utility", "invoice"]);
  if (supply.score >= MIN_SUPPLY && supply.score >= rival && enough(bill))
    return { documentType: "utility_bill", basis: `text: utility bill: ${explain(bill.cues)}` };
  const financial = tallyOf(cues, FINANCIAL_KINDS);
  if (enough(financial))
    return { documentType: "financial", basis: `text: financial (${financialKind(cues)}): ${explain(financial.cues)}` };
  return undefined;
};

/**
 * What the text decides, with the cues it found, so that an undecided text still says what it saw.
 */
const fromText = (rows: readonly ReadRow[]): { decided?: DocumentTypeResult; cues: FoundCue[] } => {
  const texts = rows.map((row) => row.text);
  const joined = fold(texts.join("\n"));
  for (const mrz of MRZ_PATTERNS)
    if (mrz.pattern.test(joined)) return { decided: { documentType: mrz.type, basis: `text: ${mrz.label}` }, cues: [] };
  const cues = findCues(texts);
  const paperScore = tallyOf(cues, ["utility", ...FINANCIAL_KINDS]).score;
  const prose = rows.filter((row) => isProse(row.text));
  const decided = identityFrom(cues, paperScore, rows, prose) ?? paperFrom(cues);
  return decided ? { decided, cues } : { cues };
};

/** Physical sizes in millimetres of the ISO formats identity documents use. */
const ID1 = { ratio: 85.6 / 53.98, long: 85.6, type: "id" as const, label: "ID-1 card" };
const TD3 = { ratio: 125 / 88, long: 125, type: "passport" as const, label: "TD3 passport page" };

const fromShape = (size: NonNullable<DocumentTypeInput["size"]>, inPoints: boolean): DocumentTypeResult | undefined => {
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  if (short <= 0) return undefined;
  const ratio = long / short;
  for (const format of [ID1, TD3]) {
    if (Math.abs(ratio - format.ratio) > format.ratio * 0.03) continue;
    if (inPoints) {
      // A PDF page has a physical size: it must be the card or page itself.
      const mm = (long * 25.4) / 72;
      if (Math.abs(mm - format.long) > format.long * 0.1) continue;
    } else if (size.width < size.height) {
      // Photos of cards and passport pages are landscape; portrait at ~1.41 is A4.
      continue;
    }
    return { documentType: format.type, basis: `shape: aspect ${ratio.toFixed(3)} (${format.label})` };
  }
  return undefined;
};

/**
 * A zone that names its holder (surname, filler, given names). findMrz judges a zone's
 * code and state, but takes an empty name field (a payment slip's row of filler under two
 * rows of digits) for one: no holder, no identity document.
 */
const HOLDER = /[A-Z]{2,}<{1,2}[A-Z]{2,}/;
const namesHolder = (zone: MrzCandidate): boolean => zone.raw.some((row) => HOLDER.test(row));

/**
 * A zone's document code: P passports, I/A/C identity cards (ICAO 9303); visas name no type here.
 */
const fromMrz = (document: DocumentText): DocumentTypeResult | undefined => {
  for (const zone of findMrz(document).filter(namesHolder)) {
    const code = zone.raw[0]![0];
    if (code === "P") return { documentType: "passport", basis: `mrz: ${zone.layout} passport zone` };
    if (code === "I" || code === "A" || code === "C")
      return { documentType: "id", basis: `mrz: ${zone.layout} identity card zone` };
  }
  return undefined;
};

/**
 * Text beyond this is not read: the first pages say what a document is (a 300-page statement would
 * cost a second).
 */
const MAX_TEXT = 50_000;

/**
 * The rows to classify, up to MAX_TEXT characters: one per visual row, page after page, with
 * its place. OCR returns a table cell per line, so "TOTAL" and its amount come back as two
 * lines; a row puts them together again, as PDF text already has them.
 */
const rowsToRead = (input: DocumentTypeInput): ReadRow[] => {
  const rows: ReadRow[] =
    input.text !== undefined
      ? input.text.split("\n").map((text) => ({ text }))
      : (input.document?.pages ?? []).flatMap((page) =>
          rowsOf(page).map((row) => ({ text: rowText(row), place: { page: row.page, box: row.box } })),
        );
  const kept: ReadRow[] = [];
  let length = 0;
  for (const row of rows) {
    if (length > MAX_TEXT) break;
    kept.push(row);
    length += row.text.length + 1;
  }
  return kept;
};

export const classifyDocumentType = (input: DocumentTypeInput): DocumentTypeResult => {
  const zone = input.document ? fromMrz(input.document) : undefined;
  if (zone) return zone;
  const rows = rowsToRead(input);
  const text = fromText(rows);
  if (text.decided) return text.decided;
  const wordCount = rows.reduce((sum, row) => sum + wordsIn(fold(row.text)), 0);
  const fields = text.cues.filter((c) => c.kind === "identity_field" && !c.prose);
  const labelled = fields.length >= FIELDS_FOR_SHAPE && !text.cues.some((c) => c.kind === "letter");
  const shape =
    input.size && (wordCount <= MAX_WORDS_FOR_SHAPE || labelled)
      ? fromShape(input.size, input.sizeInPoints ?? false)
      : undefined;
  if (shape) return labelled ? { ...shape, basis: `${shape.basis}, ${explain(fields)}` } : shape;
  return {
    documentType: "unknown",
    basis:
      text.cues.length > 0 ? `text: too little to name a type: ${explain(text.cues)}` : "no decisive text or shape",
  };
};

/** The classification as a detector result, so the report shows what it was based on. */
export const documentTypeResult = (type: DocumentTypeResult): DetectorResult => ({
  detector: DOCUMENT_TYPE_DETECTOR,
  evidence: [],
  facts: { documentType: type.documentType, basis: type.basis },
  coverage: 1,
});
