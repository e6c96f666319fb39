// Writes the external families into a corpus folder: each planned document from its own
// seeded generator, and its label appended to the folder's labels.jsonl (created if
// absent). Lines of an earlier external run (ids x…) are replaced, never duplicated.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { corpusToday } from "../clock.ts";
import { type CorpusLabel, labelMade } from "../labels.ts";
import { Rng } from "../rng.ts";
import { makeExternalDocument } from "./make-document.ts";
import type { PlannedExternal } from "./plan.ts";
import { requireTool } from "./tools.ts";

async function generateExternal(
  seed: number,
  doc: PlannedExternal,
): Promise<{ label: CorpusLabel; bytes: Uint8Array }> {
  const today = corpusToday(seed);
  const made = await makeExternalDocument(doc, Rng.derive(seed, `external:${doc.id}`), today);
  return labelMade({ ...doc, kind: doc.recipe.kind }, made, today);
}

export interface WriteOptions {
  seed: number;
  out: string;
  onProgress?: (done: number, total: number, label: CorpusLabel) => void;
}

export async function writeExternal(plan: PlannedExternal[], opts: WriteOptions): Promise<CorpusLabel[]> {
  // Every tool is looked for before the first document, so a missing one fails at once.
  for (const tool of ["soffice", "chromium", "gs", "convert"] as const) requireTool(tool);
  await mkdir(opts.out, { recursive: true });
  const labelsPath = join(opts.out, "labels.jsonl");
  const kept = existsSync(labelsPath)
    ? (await readFile(labelsPath, "utf8"))
        .split("\n")
        .filter((line) => line.trim() && !(JSON.parse(line) as CorpusLabel).id.startsWith("x"))
    : [];
  const labels: CorpusLabel[] = [];
  for (const doc of plan) {
    const { label, bytes } = await generateExternal(opts.seed, doc);
    await writeFile(join(opts.out, label.file), bytes);
    labels.push(label);
    opts.onProgress?.(labels.length, plan.length, label);
  }
  await writeFile(labelsPath, `${[...kept, ...labels.map((l) => JSON.stringify(l))].join("\n")}\n`);
  return labels;
}
