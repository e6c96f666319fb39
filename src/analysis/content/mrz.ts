// The MRZ check: check digits, expiry, and agreement with the visual zone. A flag here
// accuses a customer, so it needs a reading that survives OCR: a check digit failure is
// reported only when no plausible correction explains it and the zone was read
// confidently; a visual mismatch only when both zones were. Specimens (the fictional
// state UTO, "SPECIMEN" on the page) are samples, not fraud: they raise nothing.
import { IDENTITY_TYPES, type DocumentType } from "../flags.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { labelledValues } from "./fields.ts";
import { compareWithVisual } from "./mrz-visual.ts";
import { findMrz, readMrz, type CheckDigit, type MrzCandidate, type MrzReading } from "./mrz-read.ts";
import { compareDates, findDates, fromUtc, fullYear, readings, toIsoDate, type CalendarDate } from "./read-date.ts";
import { repairDigits, touchesRepair } from "./read-digits.ts";
import { CONFIDENT_OCR, fold, type DocumentText, type TextPage } from "./text.ts";
import type { DetectorName } from "../manifest.ts";
import type { CheckDigitState, MrzZoneMeasurement } from "../measurements.ts";

export const MRZ_DETECTOR = "mrz" satisfies DetectorName;

/** Fictional issuing states used on specimens (ICAO's Utopia). */
const FICTIONAL_STATES = new Set(["UTO"]);
const SPECIMEN_WORDS = /\b(SPECIMEN|SPECIMENS|MUSTER|MODELO|MUESTRA|ESPECIMEN|CAMPIONE|ECHANTILLON|VZOR|WZOR|MINTA)\b/;

const MAX_ZONES = 4;
const AFTER_FILLER = new Set(["composite", "personalNumber"]);
/** OCR confidence enough for a zone that at least two agreeing check digits confirm. */
const CONFIRMED_OCR = 0.8;
const STRENGTH = { checksum: 0.8, mismatch: 0.7, expired: 0.3 };

export interface MrzCheckOptions {
  now: Date;
  /**
   * The type the text names (src/analysis/document-type.ts). On a statement, bill or invoice a
   * labelled "valid until" or due date is no document's expiry: without a zone, only identity
   * documents, and documents of no known type, are judged expired by their visual zone.
   */
  documentType?: DocumentType;
}

const judgesVisualExpiry = (type: DocumentType = "unknown") => type === "unknown" || IDENTITY_TYPES.includes(type);

const documentTypeOf = (code: string) => (code.startsWith("P") ? "passport" : code.startsWith("V") ? "visa" : "id");

function isSpecimen(reading: MrzReading, page: TextPage): boolean {
  const { issuingState, nationality } = reading.result.fields;
  const states = [reading.lines[0]!.slice(2, 5), issuingState, nationality].map((s) => (s ?? "").replace(/</g, ""));
  if (states.some((s) => FICTIONAL_STATES.has(s))) return true;
  if (reading.lines.some((line) => line.includes("SPECIMEN"))) return true;
  return page.lines.some((line) => SPECIMEN_WORDS.test(fold(line.text)));
}

function mrzDate(value: string | null | undefined, referenceYear: number, futureYears: number): CalendarDate | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  return {
    year: fullYear(Number(value.slice(0, 2)), referenceYear, futureYears),
    month: Number(value.slice(2, 4)),
    day: Number(value.slice(4, 6)),
  };
}

/** Runs the MRZ check over a document's text lines. */
export function checkMrz(document: DocumentText, options: MrzCheckOptions): DetectorResult {
  const today = fromUtc(options.now);
  const evidence: Evidence[] = [];
  const zones: Record<string, unknown>[] = [];
  const zoneMeasurements: MrzZoneMeasurement[] = [];
  let coverage = 0;

  // A document holds one zone, two for a card's sides; more is noise not worth the time.
  for (const candidate of findMrz(document).slice(0, MAX_ZONES)) {
    const page = document.pages.find((p) => p.page === candidate.page)!;
    const reading = readMrz(candidate);
    if (!reading) {
      zones.push({ page: candidate.page, layout: candidate.layout, readable: false });
      zoneMeasurements.push({ readConfidently: false, specimen: false, checkDigits: [] });
      continue;
    }
    // Check digits that agree prove the digits around them were read right: a zone whose
    // other check digits hold is trusted at a lower OCR confidence.
    const agreeing = reading.checks.filter((c) => c.valid).length;
    const confident = candidate.confidence >= CONFIDENT_OCR || (candidate.confidence >= CONFIRMED_OCR && agreeing >= 2);
    const specimen = isSpecimen(reading, page);
    // Every issuer writes a known state code (ISO 3166 or ICAO's own) in the issuing state
    // or the nationality: rows where neither is one are some other text in MRZ-like
    // characters (a till receipt's rows read as a TD2), and accuse no one.
    const stateKnown =
      specimen ||
      reading.result.details.some((d) => (d.field === "issuingState" || d.field === "nationality") && d.valid);
    coverage = Math.max(coverage, Math.min(1, candidate.confidence / CONFIDENT_OCR));
    // A check digit the reading lost (filler where a digit must stand) proves nothing. The
    // composite and optional-data digits sit after the filler OCR shortens: where the zone
    // had to be stretched back to length, or a field's digit was lost, their fields may be
    // misplaced, so alone they prove nothing either.
    const shaky = reading.lengthFixes > 0 || reading.checks.some((c) => !c.read);
    const judged = (c: CheckDigit) => c.read && !(shaky && AFTER_FILLER.has(c.field));
    const failing = reading.checks.filter((c) => !c.valid && judged(c));
    const expiry = reading.checks.some((c) => c.field === "expirationDate" && c.valid)
      ? mrzDate(reading.result.fields.expirationDate, today.year, 30)
      : null;
    const code = reading.lines[0]!.slice(0, 2).replace(/</g, "");
    // By field: a field checked twice counts once.
    const checkDigits: Record<string, CheckDigitState> = Object.fromEntries(
      reading.checks.map((c) => [c.field, c.valid ? "valid" : judged(c) ? "invalid" : "unread"]),
    );
    zoneMeasurements.push({ readConfidently: confident, specimen, checkDigits: Object.values(checkDigits) });

    zones.push({
      page: candidate.page,
      layout: candidate.layout,
      documentType: documentTypeOf(code),
      documentCode: code,
      issuingState: reading.lines[0]!.slice(2, 5).replace(/</g, ""),
      specimen,
      stateKnown,
      readConfidently: confident,
      corrected: reading.corrections + reading.lengthFixes > 0,
      checkDigits,
      ...(expiry ? { expired: compareDates(expiry, today) < 0 } : {}),
    });
    if (specimen || !confident || !stateKnown) continue;

    for (const check of failing) evidence.push(checksumEvidence(candidate, check));
    if (expiry && compareDates(expiry, today) < 0)
      evidence.push(expiredEvidence(candidate.page, candidate.box, toIsoDate(expiry), toIsoDate(today), "MRZ"));

    const values = labelledValues(page, new Set(candidate.lines));
    if (!expiry) {
      const visualExpiry = visualExpiryBefore(values, today);
      if (visualExpiry)
        evidence.push(
          expiredEvidence(candidate.page, visualExpiry.box, visualExpiry.date, toIsoDate(today), "visual zone"),
        );
    }
    for (const m of compareWithVisual(reading, values, today.year)) {
      evidence.push({
        flag: "mrz_mismatch",
        detector: MRZ_DETECTOR,
        strength: STRENGTH.mismatch,
        message: `The ${m.field} in the visual zone does not match the MRZ`,
        page: candidate.page,
        box: m.value.line.box,
        measured: m.visual,
        threshold: m.mrz,
      });
    }
  }

  if (zones.length === 0 && judgesVisualExpiry(options.documentType)) {
    // Without a zone, a labelled expiry date on a confidently read line still tells.
    for (const page of document.pages) {
      const visualExpiry = visualExpiryBefore(labelledValues(page), today);
      if (visualExpiry && !page.lines.some((line) => SPECIMEN_WORDS.test(fold(line.text)))) {
        evidence.push(expiredEvidence(page.page, visualExpiry.box, visualExpiry.date, toIsoDate(today), "visual zone"));
      }
    }
  }
  return { detector: MRZ_DETECTOR, evidence, facts: { zones }, coverage, measurements: { mrzZones: zoneMeasurements } };
}

function checksumEvidence(candidate: MrzCandidate, check: MrzReading["checks"][number]): Evidence {
  return {
    flag: "mrz_checksum_invalid",
    detector: MRZ_DETECTOR,
    strength: STRENGTH.checksum,
    message: `${check.label} is ${check.printed}${check.computed ? ` but its field gives ${check.computed}` : " and does not match its field"}, after trying the usual OCR corrections`,
    page: candidate.page,
    box: candidate.box,
    measured: check.printed,
    ...(check.computed ? { threshold: check.computed } : {}),
  };
}

function expiredEvidence(page: number, box: Evidence["box"], expiry: string, today: string, where: string): Evidence {
  return {
    flag: "document_expired",
    detector: MRZ_DETECTOR,
    strength: STRENGTH.expired,
    message: `The document expired on ${expiry} (${where})`,
    page,
    box,
    measured: expiry,
    threshold: today,
  };
}

/** A clearly labelled, confidently and unambiguously read expiry date before today. */
function visualExpiryBefore(values: ReturnType<typeof labelledValues>, today: CalendarDate) {
  for (const value of values) {
    if (value.kind !== "expiryDate" || !value.confident) continue;
    const { text, repaired } = repairDigits(value.text, value.line.source);
    const match = findDates(text)[0];
    if (!match || touchesRepair(repaired, match.index, match.text.length)) continue;
    const dates = readings(match, null, { referenceYear: today.year, futureYears: 30 });
    if (dates.length > 0 && dates.every((d) => compareDates(d, today) < 0)) {
      return { box: value.line.box, date: toIsoDate(dates.reduce((a, b) => (compareDates(a, b) > 0 ? a : b))) };
    }
  }
  return null;
}
