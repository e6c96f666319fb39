// A small corpus folder made by the corpus generator itself: a few real documents of known
// kinds, plus one whose file is cut short so that intake refuses it.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDocument } from "../../../scripts/corpus/corpus.ts";
import type { CorpusLabel, Kind } from "../../../scripts/corpus/labels.ts";
import { planCorpus } from "../../../scripts/corpus/plan.ts";

const PICKS: [Kind, CorpusLabel["documentType"]][] = [
  ["genuine_clean", "financial"],
  ["pdf_incremental_edit", "financial"],
  ["genuine_clean", "passport"],
  ["image_retype", "passport"],
];

export interface CorpusFixture {
  dir: string;
  /** Every label written, the truncated document last. */
  labels: CorpusLabel[];
}

export async function makeCorpusFixture(): Promise<CorpusFixture> {
  const dir = await mkdtemp(join(tmpdir(), "evaluate-corpus-"));
  const plan = planCorpus(42, "small");
  const labels: CorpusLabel[] = [];
  for (const [kind, documentType] of PICKS) {
    const planned = plan.find((doc) => doc.kind === kind && doc.documentType === documentType)!;
    const { label, bytes } = await generateDocument(42, planned);
    await writeFile(join(dir, label.file), bytes);
    labels.push(label);
  }
  const whole = labels[1]!;
  const truncated: CorpusLabel = { ...whole, id: "cut", file: "cut.pdf" };
  await writeFile(join(dir, truncated.file), (await readFile(join(dir, whole.file))).subarray(0, 200));
  labels.push(truncated);
  await writeFile(join(dir, "labels.jsonl"), `${labels.map((label) => JSON.stringify(label)).join("\n")}\n`);
  return { dir, labels };
}
