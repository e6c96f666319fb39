// One evaluation run: make the corpus if asked, score the selected documents, and write
// evaluation.json, scores.jsonl, roc.png and scores.png into the output folder.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCorpus } from "../corpus/corpus.ts";
import type { Backend } from "./backends/backend.ts";
import { hasLabels, readLabels, selectLabels, type SplitChoice } from "./corpus-input.ts";
import { evaluate, type Evaluation } from "./evaluation.ts";
import { formatThreshold } from "./format-report.ts";
import { flaggedRate } from "./metrics.ts";
import { drawRoc, drawScoreHistogram } from "./plots.ts";
import { createProgress } from "./progress.ts";
import { scoreCorpus } from "./score-corpus.ts";
import { toJsonLines, type ScoreRow } from "./score-row.ts";

export interface EvaluationOptions {
  corpus: string;
  split: SplitChoice;
  out: string;
  concurrency: number;
  limit?: number;
  generate?: { size: "small" | "full"; seed: number };
  backend: () => Promise<Backend>;
  log: (line: string) => void;
}

const OUTPUT_FILES = {
  evaluation: "evaluation.json",
  scores: "scores.jsonl",
  roc: "roc.png",
  histogram: "scores.png",
} as const;

async function ensureCorpus(options: EvaluationOptions): Promise<void> {
  if (hasLabels(options.corpus)) {
    if (options.generate) options.log(`evaluate: ${options.corpus} already holds a corpus; --generate is not needed`);
    return;
  }
  if (!options.generate)
    throw new Error(
      `${options.corpus} has no labels.jsonl: generate a corpus first, or pass --generate small|full --seed N`,
    );
  const { size, seed } = options.generate;
  options.log(`evaluate: generating the ${size} corpus (seed ${seed}) into ${options.corpus}`);
  await generateCorpus({
    seed,
    size,
    out: options.corpus,
    onProgress: (done, total) => {
      if (done % 20 === 0 || done === total) options.log(`corpus: ${done}/${total}`);
    },
  });
}

async function writePlots(evaluation: Evaluation, out: string, genuine: number[], forged: number[]): Promise<void> {
  const subtitle = `${evaluation.run.split} split, ${genuine.length + forged.length} documents`;
  const marks = (["fpr1", "fpr5"] as const).map((rule) => ({
    label: rule === "fpr1" ? "1% FPR" : "5% FPR",
    fpr: flaggedRate(genuine, evaluation.rules[rule]).rate ?? 0,
    tpr: evaluation.overall.detection[rule].rate ?? 0,
  }));
  const lines = [
    { label: `5% FPR: ${formatThreshold(evaluation.rules.fpr5)}`, score: evaluation.rules.fpr5.value },
    { label: formatThreshold(evaluation.rules.operating), score: evaluation.rules.operating.value },
  ];
  await writeFile(
    join(out, OUTPUT_FILES.roc),
    drawRoc({ points: evaluation.roc.points, auc: evaluation.roc.auc, marks, subtitle }).png,
  );
  await writeFile(join(out, OUTPUT_FILES.histogram), drawScoreHistogram({ genuine, forged, lines, subtitle }).png);
}

export async function runEvaluation(options: EvaluationOptions): Promise<Evaluation> {
  await ensureCorpus(options);
  const labels = selectLabels(readLabels(options.corpus), options.split, options.limit);
  if (labels.length === 0) throw new Error(`no documents in the ${options.split} split of ${options.corpus}`);
  await mkdir(options.out, { recursive: true });

  const backend = await options.backend();
  const startedAt = new Date();
  const started = performance.now();
  const progress = createProgress(labels.length);
  options.log(
    `evaluate: ${labels.length} documents (${options.split} split), ${options.concurrency} at a time, ${backend.description}`,
  );
  const scored = await scoreCorpus({
    dir: options.corpus,
    labels,
    backend,
    concurrency: options.concurrency,
    onProgress: progress.tick,
  }).finally(() => backend.close());

  const evaluation = evaluate(scored.rows, scored.failed, {
    corpus: options.corpus,
    split: options.split,
    mode: backend.description,
    documents: labels.length,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
  });
  await writeEvaluation(options.out, evaluation, scored.rows);
  return evaluation;
}

/** scores.jsonl, evaluation.json and both plots of an evaluation, written to `out`. */
export async function writeEvaluation(out: string, evaluation: Evaluation, rows: readonly ScoreRow[]): Promise<void> {
  await mkdir(out, { recursive: true });
  await writeFile(join(out, OUTPUT_FILES.scores), toJsonLines(rows));
  await writeFile(join(out, OUTPUT_FILES.evaluation), `${JSON.stringify(evaluation, null, 2)}\n`);
  const genuine = rows.filter((row) => row.label === "genuine").map((row) => row.score);
  const forged = rows.filter((row) => row.label === "forged").map((row) => row.score);
  await writePlots(evaluation, out, genuine, forged);
}
