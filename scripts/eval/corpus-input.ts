// The corpus a run reads: labels.jsonl beside the documents, filtered by split and limit.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { CorpusLabel } from "../corpus/labels.ts";

export type SplitChoice = "train" | "test" | "all";

const labelsPath = (dir: string) => join(dir, "labels.jsonl");

export function hasLabels(dir: string): boolean {
  return existsSync(labelsPath(dir));
}

export function readLabels(dir: string): CorpusLabel[] {
  return readFileSync(labelsPath(dir), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line, i) => {
      try {
        return JSON.parse(line) as CorpusLabel;
      } catch {
        throw new Error(`${labelsPath(dir)}: line ${i + 1} is not JSON`);
      }
    });
}

/**
 * The documents of a split; with a limit, taken round-robin across kinds so that a short
 * run still sees every kind rather than the first few in file order.
 */
export function selectLabels(labels: readonly CorpusLabel[], split: SplitChoice, limit?: number): CorpusLabel[] {
  const inSplit = labels.filter((label) => split === "all" || label.split === split);
  if (limit === undefined || limit >= inSplit.length) return inSplit;
  const queues = new Map<string, CorpusLabel[]>();
  for (const label of inSplit) {
    const queue = queues.get(label.kind);
    if (queue) queue.push(label);
    else queues.set(label.kind, [label]);
  }
  const picked: CorpusLabel[] = [];
  while (picked.length < limit) {
    for (const queue of queues.values()) {
      const next = queue.shift();
      if (next && picked.length < limit) picked.push(next);
    }
  }
  return picked;
}

/** The document's path, refusing a label whose file name would leave the corpus folder. */
export function documentPath(dir: string, label: CorpusLabel): string {
  const path = resolve(dir, label.file);
  const inside = relative(resolve(dir), path);
  if (!inside || inside.split(sep)[0] === ".." || isAbsolute(inside))
    throw new Error(`label ${label.id}: file ${JSON.stringify(label.file)} is outside the corpus folder`);
  return path;
}
