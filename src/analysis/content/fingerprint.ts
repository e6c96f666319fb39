// Fingerprints for duplicate_submission: the same document sent again by the same API
// key, or the same template sent with changed fields (the same account number and
// period with other amounts, the same portrait on another identity). Only hashes are
// kept: sha256 of the bytes, a 64-bit dHash of the first page (9×8 greyscale), 64-bit
// simhashes of the text with and without its digits, short hashes of identifiers (long
// numbers, IBANs) and of the set of dates. dHash and simhash are a few lines each and
// no maintained npm package does them over sharp's raw output, hence written here.
import { createHash } from "node:crypto";
import sharp from "sharp";
import type { Box, DetectorResult, Evidence } from "../report.ts";
import { findDates, inferOrder, readings, toIsoDate } from "./read-date.ts";
import { fold, type DocumentText } from "./text.ts";

export const FINGERPRINT_DETECTOR = "fingerprint";

/** Pixels sharp may decode for a thumbnail: above the largest page the service accepts. */
const MAX_INPUT_PIXELS = 100_000_000;

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
  /** dHash of the portrait, when the caller knows where it is. */
  portrait: string | null;
}

export type PageImage =
  | { encoded: Uint8Array }
  | { raw: Uint8Array; width: number; height: number; channels: 1 | 2 | 3 | 4 };

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

/** Bits a re-encoded or rescanned copy may flip in the page dHash (measured 0–2 on JPEG q95→q60). */
export const IMAGE_SAME = 6;
/** Bits OCR variance may flip in a text simhash of the same document. */
export const TEXT_SAME = 3;
/** Bits a template filled with other values stays within, digits masked. */
export const LAYOUT_SIMILAR = 10;
export const PORTRAIT_SAME = 6;

const STRENGTH = { identical: 0.3, sameDocument: 0.4, changedFields: 0.8, reusedPortrait: 0.8 };

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest();

export async function computeFingerprint(input: FingerprintInput): Promise<Fingerprint> {
  const text = input.text ? input.text.pages.flatMap((p) => p.lines.map((l) => l.text)) : [];
  return {
    exact: sha256(input.bytes).toString("hex"),
    image: input.image ? await dHash(input.image) : null,
    layout: text.length > 0 ? simhash(tokens(text).map((t) => t.replace(/\p{N}/gu, "#"))) : null,
    content: text.length > 0 ? simhash(tokens(text)) : null,
    identifiers: identifiers(text),
    dates: datesHash(text),
    portrait: input.image && input.portrait ? await dHash(input.image, input.portrait) : null,
  };
}

function source(image: PageImage) {
  return "encoded" in image
    ? sharp(image.encoded, { limitInputPixels: MAX_INPUT_PIXELS })
    : sharp(image.raw, { raw: { width: image.width, height: image.height, channels: image.channels }, limitInputPixels: MAX_INPUT_PIXELS });
}

/** 64-bit difference hash: each bit says whether a pixel is brighter than its right neighbour. */
async function dHash(image: PageImage, box?: Box): Promise<string | null> {
  let pipeline = source(image).rotate();
  if (box) {
    const { width = 0, height = 0 } = await pipeline.metadata();
    const left = Math.max(0, Math.floor(box[0]));
    const top = Math.max(0, Math.floor(box[1]));
    const w = Math.min(width - left, Math.floor(box[2]));
    const h = Math.min(height - top, Math.floor(box[3]));
    if (w < 9 || h < 8) return null;
    pipeline = sharp(await pipeline.extract({ left, top, width: w, height: h }).toBuffer());
  }
  const { data, info } = await pipeline
    .flatten({ background: "#ffffff" })
    .greyscale()
    .resize(9, 8, { fit: "fill", kernel: "cubic" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => data[(y * 9 + x) * info.channels]!;
  let hash = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) hash = (hash << 1n) | (at(x, y) > at(x + 1, y) ? 1n : 0n);
  return hash.toString(16).padStart(16, "0");
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

/** Account numbers, IBANs, document numbers: 8–34 letters and digits, at least 6 of them digits, not a date. */
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
  const days = new Set(matches.flatMap((m) => readings(m, order ?? "dmy", { referenceYear: 2000, futureYears: 99 }).map(toIsoDate)));
  return days.size === 0 ? null : short([...days].sort().join(","));
}

export function hammingHex(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (x > 0n) {
    count += Number(x & 1n);
    x >>= 1n;
  }
  return count;
}

const distance = (a: string | null, b: string | null) => (a !== null && b !== null ? hammingHex(a, b) : null);

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
    return { kind: "sameDocument", message: "the same document, re-encoded or rescanned", measured: image, threshold: IMAGE_SAME };
  }
  const sharedIdentifier = current.identifiers.some((id) => earlier.identifiers.includes(id));
  // Same account and same period (or same document number and dates) but other text:
  // a genuine next month's statement has other dates, so it does not land here.
  if (sharedIdentifier && current.dates !== null && current.dates === earlier.dates && content !== null && content > TEXT_SAME && layout !== null && layout <= LAYOUT_SIMILAR) {
    return { kind: "changedFields", message: "the same template, identifiers and dates with changed fields", measured: content, threshold: TEXT_SAME };
  }
  const portrait = distance(current.portrait, earlier.portrait);
  if (portrait !== null && portrait <= PORTRAIT_SAME && current.identifiers.length > 0 && earlier.identifiers.length > 0 && !sharedIdentifier) {
    return { kind: "reusedPortrait", message: "the same portrait on a different identity", measured: portrait, threshold: PORTRAIT_SAME };
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
