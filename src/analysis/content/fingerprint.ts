// Fingerprints for duplicate_submission: the same document sent again by the same API
// key, or the same template sent with changed fields (the same account number and
// period with other amounts, the same portrait on another identity). Only hashes are
// kept: sha256 of the bytes, a 64-bit dHash of the first page (9×8 greyscale), 64-bit
// simhashes of the text with and without its digits, short hashes of identifiers (long
// numbers, IBANs), of the set of dates, and of an identity document's portrait
// (portrait.ts). dHash and simhash are a few lines each and no maintained npm package does
// them over sharp's raw output, hence written here.
import { createHash } from "node:crypto";
import type { Box, DetectorResult, Evidence } from "../report.ts";
import { labelledValues } from "./fields.ts";
import { decodePageImage, differenceHash, type PageImage } from "./page-image.ts";
import { portraitHashes } from "./portrait.ts";
import { findDates, inferOrder, readings, toIsoDate } from "./read-date.ts";
import { fold, type DocumentText } from "./text.ts";
import type { DetectorName } from "../manifest.ts";

export const FINGERPRINT_DETECTOR = "fingerprint" satisfies DetectorName;

export interface Fingerprint {
  /** sha256 of the document bytes, hex. */
  exact: string;
  /** 64-bit dHash of the first page, 16 hex digits. */
  image: string | null;
  /** Simhash of the text with digits masked: the template. */
  layout: string | null;
  /** Simhash of the text as read: the filled-in document. */
  content: string | null;
  /** Short hashes of account numbers, IBANs and document numbers. */
  identifiers: string[];
  /** Hash of the set of dates on the document. */
  dates: string | null;
  /**
   * Short hashes of who the document names: its holder's surname ("s:") and birth date
   * ("b:"), as labelled in the visual zone. Two documents name different people only when
   * both are read on both and neither agrees: one person's passport and licence often carry
   * the same photo, and one misread name must not make them two people.
   */
  holder: string[];
  /** Difference hash of the portrait, when the caller knows where it is (portrait.ts). */
  portrait: string | null;
  /** The portrait's hash under small changes of framing: compared, never kept. */
  portraitVariants?: readonly string[];
}

export interface FingerprintInput {
  bytes: Uint8Array;
  /** The first page: the image itself, or the rendered PDF page. */
  image?: PageImage;
  text?: DocumentText;
  /** The portrait's box in the page image's pixels. */
  portrait?: Box;
}

export interface EarlierFingerprint {
  verificationId: string;
  createdAt: number;
  fingerprint: Fingerprint;
}

/**
 * Bits a re-encoded or rescanned copy may flip in the page dHash (measured 0–2 on JPEG q95→q60).
 */
const IMAGE_SAME = 6;
/** Bits OCR variance may flip in a text simhash of the same document. */
const TEXT_SAME = 3;
/** Bits a template filled with other values stays within, digits masked. */
const LAYOUT_SIMILAR = 10;
/**
 * Bits between the nearest framings of one photo on two documents: within 8 for half the
 * corpus's same-photo pairs, while different photos stayed 13 or more apart (portrait.ts).
 * The margin is kept: a missed reuse costs less than accusing a stranger's look-alike photo.
 */
export const PORTRAIT_SAME = 8;

const STRENGTH = { identical: 0.3, sameDocument: 0.4, changedFields: 0.8, reusedPortrait: 0.8 };

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest();

export async function computeFingerprint(input: FingerprintInput): Promise<Fingerprint> {
  const text = input.text ? input.text.pages.flatMap((p) => p.lines.map((l) => l.text)) : [];
  const portrait = input.image && input.portrait ? await portraitHashes(input.image, input.portrait) : null;
  return {
    exact: sha256(input.bytes).toString("hex"),
    image: input.image ? await dHash(input.image) : null,
    layout: text.length > 0 ? simhash(tokens(text).map((t) => t.replace(/\p{N}/gu, "#"))) : null,
    content: text.length > 0 ? simhash(tokens(text)) : null,
    identifiers: identifiers(text),
    dates: datesHash(text),
    holder: holder(input.text),
    portrait: portrait?.hash ?? null,
    ...(portrait ? { portraitVariants: portrait.variants } : {}),
  };
}

/** Difference hash of the whole page, shrunk to 9 x 8 pixels. */
async function dHash(image: PageImage): Promise<string> {
  const { data, info } = await decodePageImage(image)
    .rotate()
    .flatten({ background: "#ffffff" })
    .greyscale()
    .resize(9, 8, { fit: "fill", kernel: "cubic" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return differenceHash((x, y) => data[(y * 9 + x) * info.channels]!);
}

function tokens(lines: string[]): string[] {
  return lines.flatMap((line) => fold(line).split(/[^\p{L}\p{N}]+/u)).filter((t) => t.length >= 2);
}

/** 64-bit simhash: near-identical token bags give near-identical hashes. */
function simhash(words: string[]): string | null {
  if (words.length === 0) return null;
  const votes = new Array<number>(64).fill(0);
  for (const word of words) {
    const h = sha256(word).readBigUInt64BE(0);
    for (let bit = 0; bit < 64; bit++) votes[bit]! += (h >> BigInt(bit)) & 1n ? 1 : -1;
  }
  let hash = 0n;
  for (let bit = 63; bit >= 0; bit--) hash = (hash << 1n) | (votes[bit]! > 0 ? 1n : 0n);
  return hash.toString(16).padStart(16, "0");
}

const short = (value: string) => sha256(`docverify:${value}`).toString("hex").slice(0, 16);

/**
 * Account numbers, IBANs, document numbers: 8–34 letters and digits, at least 6 of them digits, not
 * a date.
 */
function identifiers(lines: string[]): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    const upper = line.toUpperCase();
    const dates = findDates(upper);
    for (const m of upper.matchAll(/[A-Z0-9](?:[A-Z0-9]|[ -](?=[A-Z0-9]{2,}))+/g)) {
      const compact = m[0].replace(/[ -]/g, "");
      if (compact.length < 8 || compact.length > 34 || (compact.match(/\d/g)?.length ?? 0) < 6) continue;
      if (dates.some((d) => d.index < m.index + m[0].length && m.index < d.index + d.text.length)) continue;
      found.add(short(compact));
    }
  }
  return [...found].sort();
}

function datesHash(lines: string[]): string | null {
  const matches = lines.flatMap((line) => findDates(line));
  const order = inferOrder(matches);
  const days = new Set(
    matches.flatMap((m) => readings(m, order ?? "dmy", { referenceYear: 2000, futureYears: 99 }).map(toIsoDate)),
  );
  return days.size === 0 ? null : short([...days].sort().join(","));
}

/**
 * Two-digit birth years read the same way on every document ("85" is 1985 on each), which is all a
 * hash needs.
 */
const BIRTH_YEARS = { referenceYear: 2030, futureYears: 0 };

/** The holder's surname and birth date, hashed, from the first page's labelled fields. */
function holder(text: DocumentText | undefined): string[] {
  const page = text?.pages[0];
  if (!page) return [];
  const values = labelledValues(page).filter((v) => v.confident);
  const surname = values.find((v) => v.kind === "surname")?.text.replace(/[^\p{L}]/gu, "");
  const birth = values.find((v) => v.kind === "birthDate");
  const matches = birth ? findDates(birth.text) : [];
  const day =
    matches.length > 0 ? readings(matches[0]!, inferOrder(matches) ?? "dmy", BIRTH_YEARS).map(toIsoDate)[0] : undefined;
  return [...(surname ? [`s:${short(fold(surname))}`] : []), ...(day ? [`b:${short(day)}`] : [])];
}

/** Both documents name their holder fully, and neither the surname nor the birth date agree. */
function differentHolders(a: readonly string[], b: readonly string[]): boolean {
  const known = (h: readonly string[]) => h.some((x) => x.startsWith("s:")) && h.some((x) => x.startsWith("b:"));
  return known(a) && known(b) && !a.some((x) => b.includes(x));
}

/** Bits set in a 32-bit integer (the SWAR count). */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Bits that differ between two hashes written in hex, compared as numbers (a shorter one as if
 * zero-padded), eight hex digits at a time: it runs for every portrait framing against every
 * stored fingerprint of a key, so a BigInt loop here cost seconds per verification.
 */
export function hammingHex(a: string, b: string): number {
  let count = 0;
  for (let end = 0; end < Math.max(a.length, b.length); end += 8) {
    const chunk = (s: string) =>
      parseInt(s.slice(Math.max(0, s.length - end - 8), Math.max(0, s.length - end)) || "0", 16);
    count += popcount32(chunk(a) ^ chunk(b));
  }
  return count;
}

const distance = (a: string | null, b: string | null) => (a !== null && b !== null ? hammingHex(a, b) : null);

/** A 64-bit hash (16 hex digits) as its high and low 32 bits. */
const halves = (hex: string): [number, number] => [parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8, 16), 16)];

/**
 * Bits between an earlier portrait and the nearest framing of this one (null without both),
 * with this portrait's framings parsed once: a key's every stored portrait is compared with them.
 */
export function portraitMatcher(current: Fingerprint): (earlier: string | null) => number | null {
  if (current.portrait === null) return () => null;
  const framings = [current.portrait, ...(current.portraitVariants ?? [])].map(halves);
  return (earlier) => {
    if (earlier === null) return null;
    const [high, low] = halves(earlier);
    let nearest = 64;
    for (const [h, l] of framings) nearest = Math.min(nearest, popcount32(h ^ high) + popcount32(l ^ low));
    return nearest;
  };
}

export const portraitDistance = (current: Fingerprint, earlier: string | null): number | null =>
  portraitMatcher(current)(earlier);

interface Match {
  kind: "identical" | "sameDocument" | "changedFields" | "reusedPortrait";
  message: string;
  measured?: number;
  threshold?: number;
}

function classify(current: Fingerprint, earlier: Fingerprint): Match | null {
  if (current.exact === earlier.exact) return { kind: "identical", message: "the identical file" };
  const image = distance(current.image, earlier.image);
  const content = distance(current.content, earlier.content);
  const layout = distance(current.layout, earlier.layout);
  // Without text on both sides the picture alone must be near-exact: two cards of one
  // template differ in little more than their photo and a few characters.
  const textAgrees = content !== null ? content <= TEXT_SAME : image !== null && image <= 2;
  if (image !== null && image <= IMAGE_SAME && textAgrees) {
    return {
      kind: "sameDocument",
      message: "the same document, re-encoded or rescanned",
      measured: image,
      threshold: IMAGE_SAME,
    };
  }
  const sharedIdentifier = current.identifiers.some((id) => earlier.identifiers.includes(id));
  // Same account and same period (or same document number and dates) but other text:
  // a genuine next month's statement has other dates, so it does not land here.
  if (
    sharedIdentifier &&
    current.dates !== null &&
    current.dates === earlier.dates &&
    content !== null &&
    content > TEXT_SAME &&
    layout !== null &&
    layout <= LAYOUT_SIMILAR
  ) {
    return {
      kind: "changedFields",
      message: "the same template, identifiers and dates with changed fields",
      measured: content,
      threshold: TEXT_SAME,
    };
  }
  const portrait = portraitDistance(current, earlier.portrait);
  if (
    portrait !== null &&
    portrait <= PORTRAIT_SAME &&
    !sharedIdentifier &&
    differentHolders(current.holder, earlier.holder)
  ) {
    return {
      kind: "reusedPortrait",
      message: "the same portrait on a different identity",
      measured: portrait,
      threshold: PORTRAIT_SAME,
    };
  }
  return null;
}

/** Compares a document's fingerprint with the ones its API key submitted before. */
export function checkDuplicates(current: Fingerprint, earlier: readonly EarlierFingerprint[]): DetectorResult {
  const evidence: Evidence[] = [];
  const matches: Record<string, unknown>[] = [];
  for (const e of earlier) {
    const match = classify(current, e.fingerprint);
    if (!match) continue;
    matches.push({ verificationId: e.verificationId, kind: match.kind, distance: match.measured ?? 0 });
    evidence.push({
      flag: "duplicate_submission",
      detector: FINGERPRINT_DETECTOR,
      strength: STRENGTH[match.kind],
      message: `Matches verification ${e.verificationId}: ${match.message}`,
      ...(match.measured !== undefined ? { measured: match.measured, threshold: match.threshold } : {}),
    });
  }
  return { detector: FINGERPRINT_DETECTOR, evidence, facts: { compared: earlier.length, matches }, coverage: 1 };
}
