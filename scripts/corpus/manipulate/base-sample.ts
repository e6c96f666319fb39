// A few genuine documents of the in-house corpus, written as a corpus folder of their own:
// enough bases for a manipulate run (two cards of each type, so a field has a donor of the
// same template, and a statement and a bill) without generating the whole corpus. The
// fixtures and the determinism test start from it.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateDocument } from "../corpus.ts";
import type { CorpusDocumentType } from "../labels.ts";
import { planCorpus } from "../plan.ts";

const PER_TYPE: Record<CorpusDocumentType, number> = {
  passport: 2,
  id: 2,
  drivers_license: 2,
  financial: 1,
  utility_bill: 1,
};

export async function writeBaseSample(
  seed: number,
  dir: string,
  perType: Partial<Record<CorpusDocumentType, number>> = PER_TYPE,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  // The full plan: its genuine_clean documents of one type alternate templates and layouts.
  const plan = planCorpus(seed, "full").filter((d) => d.kind === "genuine_clean");
  const chosen = (Object.entries(perType) as Array<[CorpusDocumentType, number]>).flatMap(([type, n]) =>
    plan.filter((d) => d.documentType === type).slice(0, n),
  );
  const lines: string[] = [];
  for (const doc of chosen) {
    const { label, bytes } = await generateDocument(seed, doc);
    await writeFile(join(dir, label.file), bytes);
    lines.push(JSON.stringify(label));
  }
  await writeFile(join(dir, "labels.jsonl"), `${lines.join("\n")}\n`);
}
