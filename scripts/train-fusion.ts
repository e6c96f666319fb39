// Trains the fusion model (src/analysis/fusion/model.json) on the training split only:
//
//   bun scripts/evaluate.ts --corpus DIR --split train --out DIR/train --concurrency 2
//   bun scripts/train-fusion.ts --scores DIR/train/scores.jsonl --seed 42 --size full
//
// L2-regularised logistic regression over the features of src/analysis/fusion/features.ts,
// fitted by Newton's method (IRLS) on standardised features; the regularisation is picked
// by 5-fold cross-validation on the training rows (mean held-out log loss). Flag and blind-spot
// features are kept non-negative (a flag is evidence of forgery, a blind spot may hide one;
// neither is evidence of genuineness): one whose weight comes out negative is left out and the
// fit repeated. Confidence margins are picked on the out-of-fold predictions, so the test
// split is never seen. Same input, same model.
//
// Hand-written rather than a dependency: the npm packages for this (ml-logistic-regression,
// last released six years ago; the large TensorFlow.js) either lack L2 and a deterministic
// solver or are far bigger than the ~60 lines of Newton steps below.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import type { Flag } from "../src/analysis/flags.ts";
import type { ScoreRow } from "./eval/score-row.ts";
import { confidenceLevel } from "../src/analysis/fusion/confidence.ts";
import { FEATURE_NAMES, isScoreFeature, SCORED_FLAGS } from "../src/analysis/fusion/features.ts";
import { type FusionModel, sigmoid } from "../src/analysis/fusion/model.ts";

const MODEL_PATH = "src/analysis/fusion/model.json";

const LAMBDAS = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1];
const FOLDS = 5;
/**
 * Out-of-fold accuracy the verdicts called high confidence must reach on the training split
 * (the smallest margin that reaches it, so as many verdicts as the evidence allows are high).
 */
const HIGH_ACCURACY = 0.95;
const MARGINS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];

type Row = Pick<ScoreRow, "id" | "label" | "kind" | "split"> & { features: number[] };

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { scores: { type: "string" }, seed: { type: "string" }, size: { type: "string" }, out: { type: "string", default: MODEL_PATH } },
});
if (!values.scores || !values.seed || !values.size) {
  console.error("usage: bun scripts/train-fusion.ts --scores DIR/train/scores.jsonl --seed N --size small|full [--out model.json]");
  process.exit(2);
}

const rows: Row[] = readFileSync(values.scores, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
if (rows.some((r) => r.split !== "train")) throw new Error("train-fusion: the scores must come from the train split only (--split train)");
if (rows.some((r) => !Array.isArray(r.features) || r.features.length !== FEATURE_NAMES.length)) {
  throw new Error(`train-fusion: every row needs ${FEATURE_NAMES.length} features (evaluate in process with the current features.ts)`);
}
const evaluation = JSON.parse(readFileSync(join(dirname(values.scores), "evaluation.json"), "utf8")) as { run: { startedAt: string } };

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) x[r] = (M[r]![n]! - dot(M[r]!.slice(r + 1, n), x.slice(r + 1))) / M[r]![r]!;
  return x;
}

/** Minimises mean log loss + λ/2·|w|² (intercept unpenalised) over rows X (first column 1). */
function fitNewton(X: number[][], y: number[], lambda: number): number[] {
  const d = X[0]!.length;
  let w = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = w.map((wj, j) => (j === 0 ? 0 : lambda * wj));
    const H = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j && i > 0 ? lambda : 0)));
    for (let n = 0; n < X.length; n++) {
      const x = X[n]!;
      const p = sigmoid(dot(w, x));
      const r = p * (1 - p);
      for (let i = 0; i < d; i++) {
        grad[i]! += ((p - y[n]!) * x[i]!) / X.length;
        for (let j = 0; j < d; j++) H[i]![j]! += (r * x[i]! * x[j]!) / X.length;
      }
    }
    H[0]![0]! += 1e-9;
    const step = solve(H, grad);
    w = w.map((wj, j) => wj - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return w;
}

interface Fitted {
  /** Weights per FEATURE_NAMES entry, in the raw (unstandardised) units, and the intercept. */
  weights: number[];
  intercept: number;
}

/**
 * Fits on the given rows, using only score features with variance there, flags and blind spots
 * kept non-negative: evidence can only raise the score, and so can a check that could not see
 * everything. Left free, detector coverages learnt the corpus's share of forgeries per format (a
 * JPEG licence with dates read started near 0.5), which no bank's traffic shares.
 */
function fit(train: Row[], lambda: number): Fitted {
  const n = FEATURE_NAMES.length;
  const mean = FEATURE_NAMES.map((_, j) => train.reduce((s, r) => s + r.features[j]!, 0) / train.length);
  const std = FEATURE_NAMES.map((_, j) => Math.sqrt(train.reduce((s, r) => s + (r.features[j]! - mean[j]!) ** 2, 0) / train.length));
  let active = FEATURE_NAMES.map((name, j) => j).filter((j) => isScoreFeature(FEATURE_NAMES[j]!) && std[j]! > 1e-9);
  const y = train.map((r) => (r.label === "forged" ? 1 : 0));
  for (;;) {
    const X = train.map((r) => [1, ...active.map((j) => (r.features[j]! - mean[j]!) / std[j]!)]);
    const w = fitNewton(X, y, lambda);
    const wrongSign = active.filter((j, k) => /^(flag|blind):/.test(FEATURE_NAMES[j]!) && w[k + 1]! < 0);
    if (wrongSign.length === 0) {
      const weights = new Array<number>(n).fill(0);
      active.forEach((j, k) => (weights[j] = w[k + 1]! / std[j]!));
      const intercept = w[0]! - active.reduce((s, j, k) => s + (w[k + 1]! * mean[j]!) / std[j]!, 0);
      return { weights, intercept };
    }
    active = active.filter((j) => !wrongSign.includes(j));
  }
}

const predict = (m: Fitted, features: number[]) => sigmoid(m.intercept + dot(m.weights, features));

/** Folds stratified by kind, assigned in id order: deterministic and balanced. */
const foldOf = new Map<string, number>();
{
  const byKind = new Map<string, Row[]>();
  for (const r of [...rows].sort((a, b) => a.id.localeCompare(b.id))) byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r]);
  let offset = 0;
  for (const kind of [...byKind.keys()].sort()) {
    byKind.get(kind)!.forEach((r, i) => foldOf.set(r.id, (i + offset) % FOLDS));
    offset += byKind.get(kind)!.length;
  }
}

const outOfFold = (lambda: number): number[] => {
  const p = new Array<number>(rows.length);
  for (let f = 0; f < FOLDS; f++) {
    const m = fit(rows.filter((r) => foldOf.get(r.id) !== f), lambda);
    rows.forEach((r, i) => foldOf.get(r.id) === f && (p[i] = predict(m, r.features)));
  }
  return p;
};

const logLoss = (p: number[]) => -rows.reduce((s, r, i) => s + Math.log(Math.max(1e-12, r.label === "forged" ? p[i]! : 1 - p[i]!)), 0) / rows.length;
const accuracy = (idx: number[], p: number[]) => (idx.length === 0 ? null : idx.filter((i) => p[i]! >= 0.5 === (rows[i]!.label === "forged")).length / idx.length);

const cv = LAMBDAS.map((lambda) => {
  const p = outOfFold(lambda);
  return { lambda, logLoss: Number(logLoss(p).toFixed(4)), accuracy: Number(accuracy(rows.map((_, i) => i), p)!.toFixed(4)), p };
});
const best = cv.reduce((a, b) => (b.logLoss < a.logLoss ? b : a));

// Smallest margin from 0.5 at which the out-of-fold verdicts called high (after the quality
// gates of confidence.ts) are right often enough; below a third of it the verdict is close
// to a coin toss: low.
const marginsFor = (highMargin: number) => ({ highMargin, lowMargin: Number((highMargin / 3).toFixed(3)) });
const levelOf = (i: number, highMargin: number) => confidenceLevel(best.p[i]!, rows[i]!.features, marginsFor(highMargin));
const highAccuracy = (m: number) => accuracy(rows.map((_, i) => i).filter((i) => levelOf(i, m) === "high"), best.p) ?? 0;
const { highMargin, lowMargin } = marginsFor(MARGINS.find((m) => highAccuracy(m) >= HIGH_ACCURACY) ?? MARGINS.at(-1)!);
const untrainedFlags = SCORED_FLAGS.filter((f) => rows.every((r) => r.features[FEATURE_NAMES.indexOf(`flag:${f}`)] === 0)) as Flag[];

const final = fit(rows, best.lambda);
const round = (v: number) => Number(v.toPrecision(6));
const model: FusionModel = {
  about: "L2-regularised logistic regression over fusionFeatures(); written by scripts/train-fusion.ts, do not edit by hand",
  command: `bun scripts/evaluate.ts --corpus DIR --split train --out DIR/train --concurrency 2 && bun scripts/train-fusion.ts --scores DIR/train/scores.jsonl --seed ${values.seed} --size ${values.size}`,
  corpus: { generator: `bun scripts/corpus/generate.ts --seed ${values.seed} --size ${values.size} --out DIR`, split: "train", documents: rows.length },
  date: evaluation.run.startedAt.slice(0, 10),
  lambda: best.lambda,
  crossValidation: cv.map(({ lambda, logLoss, accuracy }) => ({ lambda, logLoss, accuracy })),
  features: [...FEATURE_NAMES],
  weights: final.weights.map(round),
  intercept: round(final.intercept),
  untrainedFlags,
  confidence: { highMargin, lowMargin },
};
writeFileSync(values.out, JSON.stringify(model, null, 2) + "\n");

const levels = { high: [] as number[], medium: [] as number[], low: [] as number[] };
rows.forEach((_, i) => levels[levelOf(i, highMargin)].push(i));
console.log(`train-fusion: ${rows.length} rows, λ=${best.lambda} (cv log loss ${best.logLoss}, accuracy ${best.accuracy})`);
for (const [level, idx] of Object.entries(levels)) console.log(`  out-of-fold ${level}: n=${idx.length} accuracy ${accuracy(idx, best.p)?.toFixed(3) ?? "n/a"}`);
for (const [j, w] of final.weights.entries()) if (w !== 0) console.log(`  ${FEATURE_NAMES[j]!.padEnd(40)} ${w.toFixed(3)}`);
console.log(`  untrained flags: ${untrainedFlags.join(", ") || "none"}`);
console.log(`train-fusion: wrote ${values.out}`);
