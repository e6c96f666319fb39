// The public-tampering set's manifest (sources.json): forgeries that other people made of
// identity documents, published with their ground truth, beside the genuine images they
// were made from. Pinned exactly as the real-document set pins its files (repository,
// commit, path, sha256), but kept apart from it: this set is held out, and nothing in the
// project is tuned on it.
import { readFileSync } from "node:fs";
import type { DocumentType } from "../../src/analysis/flags.ts";
import { DOCUMENT_TYPES } from "../../src/analysis/flags.ts";
import type { CorpusFormat, ForgeryRegion } from "../corpus/labels.ts";
import type { Capture, RealSource } from "../real/sources.ts";

/**
 * What was done to a forged image, in this set's own words: the corpus kinds name how this
 * project's generators forge, and a public forgery is judged by what its maker did, not by
 * which of our recipes it resembles.
 */
export const PUBLIC_KINDS = [
  "public_portrait_swap", // the holder's portrait replaced by another person's
  "public_inpaint", // a text field erased (inpainted) and written again
  "public_splice", // a field pasted from another document's image
  "public_copy_move", // a character or region copied from elsewhere in the same image
  "public_recapture", // the document reproduced (printed copy or screen) and photographed again
] as const;

export type PublicKind = (typeof PUBLIC_KINDS)[number];

export interface TamperingSource {
  /** t0001-style, so that a file of this set is never taken for one of the real set (r0001). */
  id: string;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  path: string;
  sha256: string;
  label: "genuine" | "forged";
  kind: "genuine_real" | PublicKind;
  /** The id of the genuine image this forgery was made from, where that image is in the set. */
  base?: string;
  /** Where the forgery changed the image, from the source's mask, box or a pixel difference with its base. */
  regions?: ForgeryRegion[];
  documentType: DocumentType;
  format: CorpusFormat;
  capture: Capture;
  /** "tampering/<source>": one family per source repository. */
  family: string;
  licence: string;
  redistributable: boolean;
  note: string;
}

const FORMATS: readonly string[] = ["pdf", "jpeg", "png"];
const CAPTURES: readonly string[] = ["native", "scan", "photo"];

function checkRegion(region: unknown, where: string): void {
  const r = region as Partial<ForgeryRegion> | null;
  const box = r?.box;
  const whole = (n: unknown, min: number) => typeof n === "number" && Number.isInteger(n) && n >= min;
  if (!r || r.page !== 0 || r.unit !== "px" || !box || !whole(box.x, 0) || !whole(box.y, 0) || !whole(box.w, 1) || !whole(box.h, 1)) {
    throw new Error(`${where}: a region is not a page-0 pixel box with whole, non-negative coordinates`);
  }
  if (typeof r.field !== "string" || typeof r.from !== "string" || typeof r.to !== "string") throw new Error(`${where}: a region lacks field, from or to`);
}

function check(entry: Record<string, unknown>, index: number): TamperingSource {
  const where = `sources.json entry ${index} (${String(entry.id)})`;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  const text = (key: string): string => (typeof entry[key] === "string" && entry[key] !== "" ? (entry[key] as string) : fail(`${key} is not a string`));
  if (!/^t\d{4}$/.test(text("id"))) fail("id is not t0001-style");
  if (!/^[\w.-]+\/[\w.-]+$/.test(text("repo"))) fail("repo is not owner/name");
  if (!/^[0-9a-f]{40}$/.test(text("commit"))) fail("commit is not 40 hex digits");
  if (!/^[0-9a-f]{64}$/.test(text("sha256"))) fail("sha256 is not 64 hex digits");
  const label = text("label");
  const kind = text("kind");
  if (label === "genuine" ? kind !== "genuine_real" : label !== "forged" || !(PUBLIC_KINDS as readonly string[]).includes(kind)) {
    fail(`label ${label} does not go with kind ${kind}`);
  }
  if (entry.base !== undefined && (label !== "forged" || typeof entry.base !== "string")) fail("only a forgery names a base, by id");
  if (entry.regions !== undefined) {
    if (label !== "forged" || !Array.isArray(entry.regions) || entry.regions.length === 0) fail("regions is not a non-empty list on a forgery");
    for (const region of entry.regions as unknown[]) checkRegion(region, where);
  }
  if (!(DOCUMENT_TYPES as readonly string[]).includes(text("documentType"))) fail("documentType is not one of the service's");
  if (!FORMATS.includes(text("format"))) fail("format is not pdf, jpeg or png");
  if (!CAPTURES.includes(text("capture"))) fail("capture is not native, scan or photo");
  if (!text("family").startsWith("tampering/")) fail("family does not start with tampering/");
  if (typeof entry.redistributable !== "boolean") fail("redistributable is not a boolean");
  text("path");
  text("licence");
  text("note");
  return entry as unknown as TamperingSource;
}

/** The manifest, every entry checked, ids unique, every base an existing genuine entry. */
export function readTamperingSources(file: string): TamperingSource[] {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file}: not a JSON array`);
  const sources = parsed.map((entry, i) => check(entry as Record<string, unknown>, i));
  const byId = new Map(sources.map((s) => [s.id, s]));
  if (byId.size !== sources.length) throw new Error(`${file}: two entries share an id`);
  const pinned = new Set(sources.map((s) => `${s.repo}@${s.commit}:${s.path}`));
  if (pinned.size !== sources.length) throw new Error(`${file}: two entries pin the same file`);
  for (const source of sources) {
    if (source.base === undefined) continue;
    const base = byId.get(source.base);
    if (!base || base.label !== "genuine") throw new Error(`${file}: ${source.id}'s base ${source.base} is not a genuine entry of the set`);
  }
  return sources;
}

/**
 * The entry as the real-document set's fetch and naming code reads it. Those functions use
 * where the file is, its sha256, id, format, capture and document type; the kind they are
 * handed is a placeholder, since this set names its forgeries in its own vocabulary and
 * its labels take the kind from the entry itself.
 */
export const asRealSource = (source: TamperingSource): RealSource => ({ ...source, kind: "genuine_real" });
