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

function check(entry: Record<string, unknown>, index: number): RealSource {
  const where = `sources.json entry ${index} (${String(entry.id)})`;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  const text = (key: string): string => (typeof entry[key] === "string" && entry[key] !== "" ? (entry[key] as string) : fail(`${key} is not a string`));
  if (!/^r\d{4}$/.test(text("id"))) fail("id is not r0001-style");
  if (!/^[\w.-]+\/[\w.-]+$/.test(text("repo"))) fail("repo is not owner/name");
  if (!/^[0-9a-f]{40}$/.test(text("commit"))) fail("commit is not 40 hex digits");
  if (!/^[0-9a-f]{64}$/.test(text("sha256"))) fail("sha256 is not 64 hex digits");
  const label = text("label");
  const kind = text("kind");
  if (label === "genuine" ? kind !== "genuine_real" : label !== "forged" || !(FORGERY_KINDS as readonly string[]).includes(kind)) {
    fail(`label ${label} does not go with kind ${kind}`);
  }
  if (!(DOCUMENT_TYPES as readonly string[]).includes(text("documentType"))) fail("documentType is not one of the service's");
  if (!FORMATS.includes(text("format"))) fail("format is not pdf, jpeg or png");
  if (!CAPTURES.includes(text("capture"))) fail("capture is not native, scan or photo");
  if (!text("family").startsWith("real/")) fail("family does not start with real/");
  if (typeof entry.redistributable !== "boolean") fail("redistributable is not a boolean");
  text("path");
  text("licence");
  text("note");
  return entry as unknown as RealSource;
}

export function readSources(file: string): RealSource[] {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file}: not a JSON array`);
  const sources = parsed.map((entry, i) => check(entry as Record<string, unknown>, i));
  const ids = new Set(sources.map((s) => s.id));
  if (ids.size !== sources.length) throw new Error(`${file}: two entries share an id`);
  return sources;
}
