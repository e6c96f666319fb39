// Writes the manipulated families into a corpus folder: each planned document from its own
// seeded generator, its label appended to the folder's labels.jsonl. Lines of an earlier
// manipulate run (ids m…) are replaced, never duplicated; the base documents are left alone.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusToday } from "../clock.ts";
import { type CorpusLabel, labelMade } from "../labels.ts";
import type { CorpusSize } from "../plan.ts";
import { Rng } from "../rng.ts";
import { identityBases, readLabels } from "./bases.ts";
import { type FinanceBase, financeBases } from "./finance-bases.ts";
import { makeManipulated } from "./make-document.ts";
import { PixelWorker } from "./pixel-worker.ts";
import { type PlannedManipulation, planManipulations } from "./plan.ts";

export interface ManipulateOptions {
  seed: number;
  size: CorpusSize;
  /** The corpus folder: read for its genuine documents, written with the new ones. */
  out: string;
  /** Keeps only some of the plan (the fixtures pick a few documents). */
  select?: (plan: PlannedManipulation[]) => PlannedManipulation[];
  onProgress?: (done: number, total: number, label: CorpusLabel) => void;
}

export async function writeManipulated(opts: ManipulateOptions): Promise<CorpusLabel[]> {
  // The worker is started first, so a missing interpreter or module fails before any work.
  const worker = new PixelWorker();
  const scratchRoot = await mkdtemp(join(tmpdir(), "docverify-manipulate-"));
  try {
    const all = readLabels(opts.out);
    const kept = all.filter((l) => !l.id.startsWith("m"));
    const identity = await identityBases(opts.seed, opts.out, kept);
    const finance = new Map<string, { base: FinanceBase; path: string }>();
    for (const base of await financeBases(opts.seed, opts.out, kept)) {
      const path = join(scratchRoot, `${base.label.id}.png`);
      await writeFile(path, base.png);
      finance.set(base.label.id, { base, path });
    }
    const planned = planManipulations(opts.seed, opts.size, [
      ...identity.map((b) => b.label),
      ...[...finance.values()].map((f) => f.base.label),
    ]);
    const plan = opts.select ? opts.select(planned) : planned;
    const today = corpusToday(opts.seed);
    const labels: CorpusLabel[] = [];
    for (const doc of plan) {
      const scratch = await mkdtemp(join(scratchRoot, `${doc.id}-`));
      const made = await makeManipulated(doc, Rng.derive(opts.seed, `manipulate:${doc.id}`), {
        worker,
        scratch,
        dir: opts.out,
        today,
        identity,
        finance,
      });
      const { label, bytes } = labelMade(doc, made, today);
      await writeFile(join(opts.out, label.file), bytes);
      labels.push(label);
      opts.onProgress?.(labels.length, plan.length, label);
    }
    await writeFile(
      join(opts.out, "labels.jsonl"),
      `${[...kept, ...labels].map((l) => JSON.stringify(l)).join("\n")}\n`,
    );
    return labels;
  } finally {
    await worker.close();
    await rm(scratchRoot, { recursive: true, force: true });
  }
}
