// The real-document set's manifest (sources.json): where each public document lives and
// what it is. Checked as it is read, so a hand edit that breaks an entry fails by name
// before anything is fetched.
import { readFileSync } from "node:fs";
import type { DocumentType } from "../../src/analysis/flags.ts";
import { DOCUMENT_TYPES } from "../../src/analysis/flags.ts";
import { type CorpusFormat, FORGERY_KINDS, type ForgeryKind } from "../corpus/labels.ts";

/** How the document reached the repository: as its tool wrote it, scanned, or photographed. */
export type Capture = "native" | "scan" | "photo";

export interface RealSource {
  id: string;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  path: string;
  sha256: string;
  label: "genuine" | "forged";
  /** "genuine_real" for every genuine document; a corpus forgery kind for a forgery. */
  kind: "genuine_real" | ForgeryKind;
  documentType: DocumentType;
  format: CorpusFormat;
  capture: Capture;
  /** "real/<source>". */
  family: string;
  licence: string;
  redistributable: boolean;
  note: string;
}

const FORMATS: readonly string[] = ["pdf", "jpeg", "png"];
const CAPTURES: readonly string[] = ["native", "scan", "photo"];

/**
 * What one pinned-file manifest asks of its entries beyond what every such manifest asks
 * (repository, commit, sha256, label and kind, document type, format, capture, licence):
 * the real-document set and the public-tampering set are checked by the same rules, each
 * with its own ids, forgery vocabulary and family prefix.
 */
export interface ManifestRules {
  /** The id's pattern, and how an error names it ("r0001-style"). */
  id: RegExp;
  idStyle: string;
  /** The kinds a forgery may name; a genuine entry is always "genuine_real". */
  forgeryKinds: readonly string[];
  /** What every family starts with ("real/"). */
  familyPrefix: string;
  /** The set's own fields, checked once label and kind are known good. */
  more?: (entry: Record<string, unknown>, label: string, fail: (what: string) => never, where: string) => void;
}

/** The entry, checked field by field in a fixed order, so the first fault is the one named. */
function checkEntry<T>(entry: Record<string, unknown>, index: number, rules: ManifestRules): T {
  const where = `sources.json entry ${index} (${String(entry.id)})`;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  const text = (key: string): string =>
    typeof entry[key] === "string" && entry[key] !== "" ? (entry[key] as string) : fail(`${key} is not a string`);
  if (!rules.id.test(text("id"))) fail(`id is not ${rules.idStyle}`);
  if (!/^[\w.-]+\/[\w.-]+$/.test(text("repo"))) fail("repo is not owner/name");
  if (!/^[0-9a-f]{40}$/.test(text("commit"))) fail("commit is not 40 hex digits");
  if (!/^[0-9a-f]{64}$/.test(text("sha256"))) fail("sha256 is not 64 hex digits");
  const label = text("label");
  const kind = text("kind");
  if (label === "genuine" ? kind !== "genuine_real" : label !== "forged" || !rules.forgeryKinds.includes(kind)) {
    fail(`label ${label} does not go with kind ${kind}`);
  }
  rules.more?.(entry, label, fail, where);
  if (!(DOCUMENT_TYPES as readonly string[]).includes(text("documentType")))
    fail("documentType is not one of the service's");
  if (!FORMATS.includes(text("format"))) fail("format is not pdf, jpeg or png");
  if (!CAPTURES.includes(text("capture"))) fail("capture is not native, scan or photo");
  if (!text("family").startsWith(rules.familyPrefix)) fail(`family does not start with ${rules.familyPrefix}`);
  if (typeof entry.redistributable !== "boolean") fail("redistributable is not a boolean");
  text("path");
  text("licence");
  text("note");
  return entry as unknown as T;
}

/** A manifest file's entries, each checked, ids unique. */
export function readManifest<T extends { id: string }>(file: string, rules: ManifestRules): T[] {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file}: not a JSON array`);
  const sources = parsed.map((entry, i) => checkEntry<T>(entry as Record<string, unknown>, i, rules));
  const ids = new Set(sources.map((s) => s.id));
  if (ids.size !== sources.length) throw new Error(`${file}: two entries share an id`);
  return sources;
}

const RULES: ManifestRules = {
  id: /^r\d{4}$/,
  idStyle: "r0001-style",
  forgeryKinds: FORGERY_KINDS,
  familyPrefix: "real/",
};

export const readSources = (file: string): RealSource[] => readManifest<RealSource>(file, RULES);
