import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "mrz";
import { DOCUMENT_TYPES } from "../../../src/analysis/flags.ts";
import { generateCorpus } from "../../../scripts/corpus/corpus.ts";
import {
  type CorpusLabel,
  FINANCE_TYPES,
  FORGERY_KINDS,
  GENUINE_KINDS,
  IDENTITY_TYPES,
} from "../../../scripts/corpus/labels.ts";
import { checkStatementBalances } from "./statement-text.ts";

let dir: string;
let labels: CorpusLabel[];
let elapsedMs: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "corpus-"));
  const started = performance.now();
  await generateCorpus({ seed: 42, size: "small", out: dir });
  elapsedMs = performance.now() - started;
  labels = (await readFile(join(dir, "labels.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as CorpusLabel);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MAGIC: Record<CorpusLabel["format"], number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

async function bytesOf(l: CorpusLabel): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(dir, l.file)));
}

function isStatement(l: CorpusLabel): boolean {
  return l.format === "pdf" && l.source.endsWith("/bank_statement");
}

describe("the small corpus", () => {
  test("is generated in a temporary directory with 40 to 70 documents", () => {
    expect(labels.length).toBeGreaterThanOrEqual(40);
    expect(labels.length).toBeLessThanOrEqual(70);
    expect(new Set(labels.map((l) => l.id)).size).toBe(labels.length);
    console.error(`corpus: small corpus of ${labels.length} documents in ${(elapsedMs / 1000).toFixed(1)} s`);
  });

  test("has every labelled file on disk, of the format its label gives (by magic bytes)", async () => {
    for (const l of labels) {
      expect((await stat(join(dir, l.file))).size).toBeGreaterThan(0);
      const head = (await bytesOf(l)).slice(0, 8);
      expect([...head.slice(0, MAGIC[l.format].length)]).toEqual(MAGIC[l.format]);
    }
  });

  test("covers every genuine and forgery kind and every document type", () => {
    const kinds = new Set(labels.map((l) => l.kind));
    for (const k of [...GENUINE_KINDS, ...FORGERY_KINDS]) expect(kinds.has(k)).toBe(true);
    const types = new Set(labels.map((l) => l.documentType));
    for (const t of [...IDENTITY_TYPES, ...FINANCE_TYPES]) expect(types.has(t)).toBe(true);
    for (const t of types) expect(DOCUMENT_TYPES as readonly string[]).toContain(t);
  });

  test("draws its PDFs with two different generators and its images in JPEG and PNG", () => {
    const pdfGenerators = new Set(labels.filter((l) => l.format === "pdf").map((l) => l.generator));
    expect(pdfGenerators).toEqual(new Set(["pdf-lib", "pdfkit"]));
    expect(new Set(labels.map((l) => l.format))).toEqual(new Set(["pdf", "jpeg", "png"]));
  });

  test("labels each document genuine or forged consistently with its kind, and splits train/test", () => {
    for (const l of labels) {
      expect(l.label).toBe((GENUINE_KINDS as readonly string[]).includes(l.kind) ? "genuine" : "forged");
      expect(["train", "test"]).toContain(l.split);
    }
    const train = labels.filter((l) => l.split === "train").length / labels.length;
    expect(train).toBeGreaterThan(0.55);
    expect(train).toBeLessThan(0.85);
  });

  test("says for every forgery where it is and what changed", () => {
    for (const l of labels.filter((x) => x.label === "forged")) {
      expect(l.forgery?.regions.length).toBeGreaterThan(0);
      for (const r of l.forgery?.regions ?? []) {
        expect(r.unit).toBe(l.format === "pdf" ? "pt" : "px");
        expect(r.box.w).toBeGreaterThan(0);
        expect(r.box.h).toBeGreaterThan(0);
        expect(r.field.length).toBeGreaterThan(0);
        expect(r.from).not.toBe(r.to);
      }
    }
    for (const l of labels.filter((x) => x.label === "genuine")) expect(l.forgery).toBeUndefined();
  });

  test("prints MRZs that validate on genuine documents and fail when altered without new check digits", () => {
    const genuine = labels.filter((l) => l.label === "genuine" && l.mrz);
    expect(genuine.length).toBeGreaterThan(5);
    for (const l of genuine) expect(parse(l.mrz?.lines ?? []).valid).toBe(true);
    const badChecksum = labels.filter((l) => l.kind === "mrz_altered_bad_checksum");
    for (const l of badChecksum) expect(parse(l.mrz?.lines ?? []).valid).toBe(false);
    const recomputed = labels.filter((l) => l.kind === "mrz_altered_recomputed");
    for (const l of recomputed) {
      expect(parse(l.mrz?.lines ?? []).valid).toBe(true);
      const region = l.forgery?.regions[0];
      expect(region?.from).not.toBe(region?.to);
    }
  });

  test("has statements whose balances add up, unless an amount was changed without fixing the totals", async () => {
    const check = async (l: CorpusLabel) => checkStatementBalances(await bytesOf(l), new Date(l.asOf));
    const genuine = labels.filter((l) => l.label === "genuine" && isStatement(l));
    expect(genuine.length).toBeGreaterThan(0);
    for (const l of genuine) {
      const balances = await check(l);
      expect(balances).toMatchObject({ judged: true, mismatches: 0 });
      expect(balances.transactions).toBeGreaterThan(10);
    }
    const unfixed = labels.filter((l) => l.kind === "pdf_amount_rewrite" && isStatement(l));
    expect(unfixed.length).toBeGreaterThan(0);
    for (const l of unfixed) expect((await check(l)).mismatches).toBeGreaterThan(0);
    for (const l of labels.filter((x) => x.kind === "pdf_amount_rewrite_fixed_totals" && isStatement(x))) {
      expect(await check(l)).toMatchObject({ judged: true, mismatches: 0 });
    }
  });
});
