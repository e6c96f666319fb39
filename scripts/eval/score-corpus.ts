// Runs every selected document through a backend, N at a time. A document that fails is
// counted with its error code and the run goes on; results keep the corpus order.
import { readFile } from "node:fs/promises";
import type { CorpusLabel } from "../corpus/labels.ts";
import { type Backend, DocumentError } from "./backends/backend.ts";
import { documentPath } from "./corpus-input.ts";
import { type FailedRow, labelFields, type ScoreRow, toScoreRow } from "./score-row.ts";

export interface ScoredCorpus {
  rows: ScoreRow[];
  failed: FailedRow[];
}

export async function scoreCorpus(input: {
  dir: string;
  labels: readonly CorpusLabel[];
  backend: Backend;
  concurrency: number;
  onProgress?: (done: number, failed: number) => void;
}): Promise<ScoredCorpus> {
  const outcomes = new Array<{ row: ScoreRow } | { failed: FailedRow }>(input.labels.length);
  let next = 0;
  let done = 0;
  let failedCount = 0;

  async function scoreOne(label: CorpusLabel): Promise<{ row: ScoreRow } | { failed: FailedRow }> {
    try {
      const bytes = new Uint8Array(await readFile(documentPath(input.dir, label)));
      return { row: toScoreRow(label, await input.backend.verify(bytes, label.file)) };
    } catch (error) {
      const code = error instanceof DocumentError ? error.code : "EVALUATION_ERROR";
      return {
        failed: { ...labelFields(label), code, message: error instanceof Error ? error.message : String(error) },
      };
    }
  }

  async function worker() {
    while (next < input.labels.length) {
      const index = next++;
      const outcome = await scoreOne(input.labels[index]!);
      outcomes[index] = outcome;
      done++;
      if ("failed" in outcome) failedCount++;
      input.onProgress?.(done, failedCount);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, input.labels.length)) }, worker));
  return {
    rows: outcomes.flatMap((outcome) => ("row" in outcome ? [outcome.row] : [])),
    failed: outcomes.flatMap((outcome) => ("failed" in outcome ? [outcome.failed] : [])),
  };
}
