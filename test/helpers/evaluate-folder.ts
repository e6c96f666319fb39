// A labelled folder of documents (labels.jsonl beside them) through `bun scripts/evaluate.ts`
// as a user runs it, every split, in a temporary data directory: its rows and evaluation.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Evaluation } from "../../scripts/eval/evaluation.ts";
import type { ScoreRow } from "../../scripts/eval/score-row.ts";
import type { Flag } from "../../src/analysis/flags.ts";
import { evaluateCli } from "./evaluate-cli.ts";

export interface EvaluatedFolder {
  rows: ScoreRow[];
  evaluation: Evaluation;
  /** Removes the run's data directory and output. */
  remove(): Promise<void>;
}

export const readJsonl = async <T>(path: string): Promise<T[]> =>
  (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as T);

export async function evaluateFolder(folder: string): Promise<EvaluatedFolder> {
  const dir = await mkdtemp(join(tmpdir(), "evaluate-folder-"));
  const run = await evaluateCli(
    ["--corpus", folder, "--split", "all", "--out", join(dir, "out"), "--concurrency", "2"],
    { DOCVERIFY_DATA_DIR: dir },
  );
  if (run.exitCode !== 0) throw new Error(`evaluate failed: ${run.stderr.slice(-2000)}`);
  return {
    rows: await readJsonl<ScoreRow>(join(dir, "out", "scores.jsonl")),
    evaluation: JSON.parse(await readFile(join(dir, "out", "evaluation.json"), "utf8")) as Evaluation,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Every flag a row's analysis raised, listed or kept as evidence only. */
export const raised = (row: ScoreRow): Set<Flag> =>
  new Set([...row.flags, ...row.evidence.map((e) => e.flag)] as Flag[]);
export const describeRow = (row: ScoreRow): string =>
  `${row.id} ${row.family} ${row.kind} ${row.score.toFixed(2)} [${[...raised(row)].join(", ")}]`;
