// The document type from what the analysis read: a machine-readable zone (found the way
// OCR delivers it, so a misread filler does not hide it) names passports and ID cards;
// otherwise the words of the text (PDF text layer or OCR), then the shape of the page or
// image (ID-1 cards and passport data pages have fixed ISO sizes). Text decides when it
// speaks; shape is the fallback.
import { findMrz } from "./content/mrz-read";
import { fold, type DocumentText } from "./content/text";
import type { DocumentType } from "./flags";
import type { DetectorResult } from "./report";

export const DOCUMENT_TYPE_DETECTOR = "document-type";

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

/**
 * Words that name a type, matched on the text folded to capitals with everything but
 * letters and digits removed: OCR of photos and scans often drops the spaces
 * ("Accountnumber", "FACTURE/INVOICE"), and a keyword must survive that. Keywords are long
 * enough not to hide inside other words. Each keyword counts once.
 */
type Keywords = { type: Exclude<DocumentType, "unknown">; weight: number; words: string[]; label: string };

const KEYWORDS: Keywords[] = [
  { type: "passport", weight: 2, words: ["PASSPORT", "PASSEPORT", "REISEPASS", "PASAPORTE", "PASSAPORTO", "PASPOORT"], label: "passport" },
  {
    type: "drivers_license",
    weight: 3,
    words: ["DRIVINGLICENCE", "DRIVINGLICENSE", "DRIVERSLICENSE", "DRIVERLICENSE", "FUHRERSCHEIN", "PERMISDECONDUIRE", "PERMISODECONDUCIR", "PATENTEDIGUIDA", "RIJBEWIJS"],
    label: "driving licence",
  },
  {
    type: "id",
    weight: 3,
    words: ["IDENTITYCARD", "NATIONALIDENTITY", "CARTENATIONALE", "CARTEDIDENTITE", "PERSONALAUSWEIS", "DOCUMENTONACIONALDEIDENTIDAD", "CARTADIDENTITA", "IDENTITEITSKAART"],
    label: "identity card",
  },
  { type: "utility_bill", weight: 2, words: ["ELECTRICITY", "KWH", "METERREADING", "SUPPLYADDRESS", "CONSUMPTION", "NETWORKFEE", "BILLINGPERIOD", "STANDINGCHARGE", "UTILITY"], label: "utility terms" },
  { type: "utility_bill", weight: 1, words: ["INVOICE", "FACTURE", "AMOUNTDUE", "TOTALDUE", "TARIFF", "WATERSERVICES", "STADTWERKE"], label: "bill terms" },
  {
    type: "financial",
    weight: 2,
    words: ["BANKSTATEMENT", "ACCOUNTSTATEMENT", "RELEVEDECOMPTE", "STATEMENTPERIOD", "OPENINGBALANCE", "CLOSINGBALANCE", "PAYSLIP", "BULLETINDEPAIE", "NETPAY", "GROSSPAY", "PAYPERIOD"],
    label: "statement or payslip terms",
  },
  { type: "financial", weight: 1, words: ["IBAN", "SORTCODE", "TOTALDEBITS", "TOTALCREDITS", "SALARY", "DEDUCTIONS", "EMPLOYER", "ACCOUNTHOLDER"], label: "account terms" },
];

/** Machine-readable zones that survived as text lines (a misread filler or two still match). */
const MRZ_PATTERNS: Array<{ type: "passport" | "id"; pattern: RegExp; label: string }> = [
  { type: "passport", pattern: /(^|\s)P[<A-Z][A-Z<]{3}[A-Z<]{20,}/m, label: "passport MRZ" },
  { type: "id", pattern: /(^|\s)[ACI][A-Z<][A-Z<]{3}[A-Z0-9<]{25}(\s|$)/m, label: "ID card MRZ" },
  // The second line of a TD1 card zone (birth date, sex, expiry, nationality) is its own
  // signature: 30 characters no passport or visa line has, legible when the first line is
  // misread or cut short.
  { type: "id", pattern: /(^|\s)[0-9O]{6}[0-9O<][MF<][0-9O]{6}[0-9O<][A-Z0-9<]{3}[A-Z0-9<]{11}[0-9O<](\s|$)/m, label: "TD1 card MRZ" },
];
const MRZ_WEIGHT = 3;

/** Physical sizes in millimetres of the ISO formats identity documents use. */
const ID1 = { ratio: 85.6 / 53.98, long: 85.6, type: "id" as const, label: "ID-1 card" };
const TD3 = { ratio: 125 / 88, long: 125, type: "passport" as const, label: "TD3 passport page" };

const MIN_TEXT_SCORE = 2;

const fromText = (text: string): DocumentTypeResult | undefined => {
  const folded = fold(text.slice(0, 200_000));
  const compact = folded.replace(/[^A-Z0-9]/g, "");
  const scores = new Map<DocumentType, { score: number; labels: string[] }>();
  const add = (type: DocumentType, weight: number, label: string) => {
    const s = scores.get(type) ?? { score: 0, labels: [] };
    s.score += weight;
    s.labels.push(label);
    scores.set(type, s);
  };
  for (const mrz of MRZ_PATTERNS) if (mrz.pattern.test(folded)) add(mrz.type, MRZ_WEIGHT, mrz.label);
  for (const group of KEYWORDS) {
    for (const word of group.words) if (compact.includes(word)) add(group.type, group.weight, `${group.label} (${word})`);
  }
  const best = [...scores].sort((a, b) => b[1].score - a[1].score)[0];
  if (!best || best[1].score < MIN_TEXT_SCORE) return undefined;
  return { documentType: best[0], basis: `text: ${best[1].labels.join(", ")}` };
};

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

/** A zone's document code: P passports, I/A/C identity cards (ICAO 9303); visas name no type here. */
const fromMrz = (document: DocumentText): DocumentTypeResult | undefined => {
  for (const zone of findMrz(document)) {
    const code = zone.raw[0]?.[0];
    if (code === "P") return { documentType: "passport", basis: `mrz: ${zone.layout} passport zone` };
    if (code === "I" || code === "A" || code === "C") return { documentType: "id", basis: `mrz: ${zone.layout} identity card zone` };
  }
  return undefined;
};

const allText = (document: DocumentText): string => document.pages.map((p) => p.lines.map((l) => l.text).join("\n")).join("\n");

export const classifyDocumentType = (input: DocumentTypeInput): DocumentTypeResult => {
  const text = input.text ?? (input.document ? allText(input.document) : "");
  return (
    (input.document ? fromMrz(input.document) : undefined) ??
    (text ? fromText(text) : undefined) ??
    (input.size ? fromShape(input.size, input.sizeInPoints ?? false) : undefined) ?? {
      documentType: "unknown",
      basis: "no decisive text or shape",
    }
  );
};

/** The classification as a detector result, so the report shows what it was based on. */
export const documentTypeResult = (type: DocumentTypeResult): DetectorResult => ({
  detector: DOCUMENT_TYPE_DETECTOR,
  evidence: [],
  facts: { documentType: type.documentType, basis: type.basis },
  coverage: 1,
});
