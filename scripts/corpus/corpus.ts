// Generates a corpus: each planned document from its own seeded generator, written as
// `<id>.<ext>`, and one line per document in labels.jsonl.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { corpusToday } from "./clock.ts";
import { type CorpusLabel, FINANCE_TYPES, labelMade, type MadeDocument } from "./labels.ts";
import { makeFinanceDocument } from "./make-finance.ts";
import { makeIdentityDocument } from "./make-identity.ts";
import { type CorpusSize, type PlannedDocument, planCorpus } from "./plan.ts";
import { Rng } from "./rng.ts";

export interface GeneratedDocument {
  label: CorpusLabel;
  bytes: Uint8Array;
}

/** One document, independent of every other: the same seed and plan entry give the same bytes. */
export async function generateDocument(seed: number, doc: PlannedDocument): Promise<GeneratedDocument> {
  const today = corpusToday(seed);
  const rng = Rng.derive(seed, doc.id);
  const made: MadeDocument = (FINANCE_TYPES as readonly string[]).includes(doc.documentType)
    ? await makeFinanceDocument(doc, rng, today)
    : await makeIdentityDocument(doc, rng, today);
  return labelMade(doc, made, today);
}

export interface GenerateOptions {
  seed: number;
  size: CorpusSize;
  out: string;
  onProgress?: (done: number, total: number, label: CorpusLabel) => void;
}

export async function generateCorpus(opts: GenerateOptions): Promise<CorpusLabel[]> {
  await mkdir(opts.out, { recursive: true });
  const plan = planCorpus(opts.seed, opts.size);
  const labels: CorpusLabel[] = [];
  for (const doc of plan) {
    const { label, bytes } = await generateDocument(opts.seed, doc);
    await writeFile(join(opts.out, label.file), bytes);
    labels.push(label);
    opts.onProgress?.(labels.length, plan.length, label);
  }
  await writeFile(join(opts.out, "labels.jsonl"), `${labels.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return labels;
}
