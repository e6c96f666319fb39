// Trains the fusion model (src/analysis/fusion/model.json) leave-one-family-out:
//
//   bun scripts/evaluate.ts --corpus DIR --split all --out DIR/all --concurrency 2
//   bun scripts/train-fusion.ts --scores DIR/all/scores.jsonl --seed 42 --size full
//
// Every family of the corpus (how a document was made: generator, layout, capture path;
// scripts/corpus/labels.ts familyOf) is scored by a model fitted on the other families only,
// its λ chosen leave-one-family-out over those (scripts/fusion/leave-one-family-out.ts). Those
// out-of-family scores, the served score with every ceiling of the fusion, are the figures
// reported (--report, docs/evaluation/leave-one-family-out/ by default: report.txt,
// evaluation.json, scores.jsonl); the confidence margins are picked on them. The committed
// model is then fitted on every family with the λ that predicted unseen families best. Each
// flag's weight is kept between 0 and the bound its genuine and forged firing rates allow
// (scripts/fusion/flag-bounds.ts). Same input, same model.
//
// --held-out DIR/scores.jsonl re-scores the documents of a set no model may be fitted on (the
// real public documents, scripts/real/; the public tampering samples, scripts/tampering/) with
// the committed model, from the features their evaluation stored, and writes its report to
// --held-out-report (docs/evaluation/real-documents/ for a single set): the served score,
// without analysing them again. Both options repeat, paired in order, one report per set.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { CONFIDENCES, type Flag } from "../src/analysis/flags.ts";
import { FEATURE_NAMES, INFORMATIONAL_FLAGS, weighsByPrior } from "../src/analysis/fusion/features.ts";
import type { FusionModel } from "../src/analysis/fusion/model.ts";
import { evaluate } from "./eval/evaluation.ts";
import { formatEvaluation } from "./eval/format-report.ts";
import { writeEvaluation } from "./eval/run-evaluation.ts";
import type { ScoreRow } from "./eval/score-row.ts";
import { strengthsOfFeatures, verdictConfidence, verdictOf } from "../src/analysis/fusion.ts";
import {
  asModel,
  bestLambda,
  type FamilySample,
  lambdaLosses,
  outOfFamily,
  train,
} from "./fusion/leave-one-family-out.ts";

const MODEL_PATH = "src/analysis/fusion/model.json";
const REPORT_DIR = "docs/evaluation/leave-one-family-out";
const HELD_OUT_REPORT_DIR = "docs/evaluation/real-documents";

/**
 * Out-of-family accuracy the verdicts called high confidence must reach (the smallest margin
 * that reaches it, so as many verdicts as the evidence allows are high).
 */
const HIGH_ACCURACY = 0.95;
const MARGINS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    scores: { type: "string" },
    seed: { type: "string" },
    size: { type: "string" },
    out: { type: "string", default: MODEL_PATH },
    report: { type: "string", default: REPORT_DIR },
    "held-out": { type: "string", multiple: true, default: [] },
    "held-out-report": { type: "string", multiple: true, default: [] },
  },
});
const heldOutSets = values["held-out"];
const heldOutReports =
  values["held-out-report"].length === 0 && heldOutSets.length === 1
    ? [HELD_OUT_REPORT_DIR]
    : values["held-out-report"];
if (!values.scores || !values.seed || !values.size || heldOutReports.length !== heldOutSets.length) {
  console.error(
    "usage: bun scripts/train-fusion.ts --scores DIR/all/scores.jsonl --seed N --size small|full [--out model.json] [--report DIR] [--held-out SET/all/scores.jsonl --held-out-report DIR]...\n" +
      "  (--held-out-report may be left out for a single held-out set: it then defaults to " +
      HELD_OUT_REPORT_DIR +
      ")",
  );
  process.exit(2);
}

const readRows = (path: string): ScoreRow[] => {
  const read: ScoreRow[] = readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  if (read.some((r) => !Array.isArray(r.features) || r.features.length !== FEATURE_NAMES.length)) {
    console.error(
      `train-fusion: ${path}: every row needs ${FEATURE_NAMES.length} features (evaluate in process with the current features.ts)`,
    );
    process.exit(2);
  }
  return read;
};
const rows = readRows(values.scores);
if (rows.some((r) => !r.family)) {
  console.error("train-fusion: every row needs its family (score a corpus generated with families)");
  process.exit(2);
}
type RunTimes = { run: { startedAt: string; durationMs: number } };
const runOf = (scores: string) =>
  JSON.parse(readFileSync(join(dirname(scores), "evaluation.json"), "utf8")) as RunTimes;
const evaluation = runOf(values.scores);
/**
 * A row's flags that are no feature, with their strengths. Rows evaluated before these were
 * kept give them from their evidence, whose strengths are before the detector's coverage: an
 * upper bound (a recapture's trace may count less than fully).
 */
function priorOf(r: ScoreRow): Partial<Record<Flag, number>> {
  if (r.priorStrengths) return r.priorStrengths;
  const prior: Partial<Record<Flag, number>> = {};
  for (const e of r.evidence) if (weighsByPrior(e.flag)) prior[e.flag] = Math.max(prior[e.flag] ?? 0, e.strength);
  return prior;
}
const samples: FamilySample[] = rows.map((r) => ({
  features: r.features!,
  y: r.label === "forged" ? 1 : 0,
  family: r.family,
  prior: priorOf(r),
}));
const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();

/** What the service would answer for a scored row, given the model's verdict on its features. */
const served = (
  r: ScoreRow,
  v: { forgeryScore: number; flags: ScoreRow["flags"] },
  margins: FusionModel["confidence"],
): ScoreRow => ({
  ...r,
  score: v.forgeryScore,
  // Informational flags (expired, low quality) are not features: the row's own are kept.
  flags: [...v.flags, ...r.flags.filter((f) => INFORMATIONAL_FLAGS.includes(f))],
  confidence: verdictConfidence(v.forgeryScore, r.features!, v.flags, margins),
});

// 1. Every family scored by a model that never saw it.
const held = outOfFamily(samples, log);
const oof = new Array<{ forgeryScore: number; flags: ScoreRow["flags"] }>(rows.length);
for (const family of held) for (const s of family.scores) oof[s.index] = { forgeryScore: s.score, flags: s.flags };
const marginsFor = (highMargin: number) => ({ highMargin, lowMargin: Number((highMargin / 3).toFixed(3)) });
const oofRowsAt = (highMargin: number) => rows.map((r, i) => served(r, oof[i]!, marginsFor(highMargin)));

// 2. Confidence margins on those scores: the smallest margin at which the verdicts called
//    high (after the quality gates, and never on provenance alone) are right often enough.
const right = (r: ScoreRow) => r.score >= 0.5 === (r.label === "forged");
const highAccuracy = (m: number) => {
  const high = oofRowsAt(m).filter((r) => r.confidence === "high");
  return high.length === 0 ? 0 : high.filter(right).length / high.length;
};
const highMargin = MARGINS.find((m) => highAccuracy(m) >= HIGH_ACCURACY) ?? MARGINS.at(-1)!;
const oofRows = oofRowsAt(highMargin);

// 3. The report of the out-of-family scores, with the evaluation's own tables.
/**
 * The evaluation of rescored documents: report.txt, evaluation.json, scores.jsonl (without
 * features) and plots in `dir`.
 */
const writeReport = async (dir: string, scored: ScoreRow[], scores: string, mode: string) => {
  const run = runOf(scores).run;
  const result = evaluate(scored, [], {
    corpus: scores,
    split: "all",
    mode,
    documents: scored.length,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
  });
  await writeEvaluation(
    dir,
    result,
    scored.map(({ features: _, ...row }) => row),
  );
  writeFileSync(join(dir, "report.txt"), `${formatEvaluation(result)}\n`);
  return result;
};
const report = await writeReport(
  values.report,
  oofRows,
  values.scores,
  "leave-one-family-out: each family scored by a fusion fitted on the other families",
);

// 4. The committed model: every family, the λ that predicted unseen families best.
const losses = lambdaLosses(samples);
const lambda = bestLambda(losses);
const final = train(samples, lambda);
const round = (v: number) => Number(v.toPrecision(6));
const model: FusionModel = asModel(final, {
  about:
    "L2-regularised logistic regression over fusionFeatures(), flag weights bounded by their firing rates; written by scripts/train-fusion.ts, do not edit by hand",
  command: `bun scripts/evaluate.ts --corpus DIR --split all --out DIR/all --concurrency 2 && bun scripts/train-fusion.ts --scores DIR/all/scores.jsonl --seed ${values.seed} --size ${values.size}`,
  corpus: {
    generator: ["", "external/", "manipulate/"]
      .map((dir) => `bun scripts/corpus/${dir}generate.ts --seed ${values.seed} --size ${values.size} --out DIR`)
      .join(" && "),
    documents: rows.length,
    families: [...new Set(rows.map((r) => r.family))].sort(),
  },
  date: evaluation.run.startedAt.slice(0, 10),
  crossValidation: losses,
  weights: final.weights.map(round),
  intercept: round(final.intercept),
  confidence: marginsFor(highMargin),
});
writeFileSync(values.out, `${JSON.stringify(model, null, 2)}\n`);

// 5. Held-out sets, re-scored by the committed model from their stored features.
for (const [i, heldOut] of heldOutSets.entries()) {
  const reportDir = heldOutReports[i]!;
  const heldRows = readRows(heldOut).map((r) =>
    served(r, verdictOf(model, r.features!, strengthsOfFeatures(r.features!, priorOf(r))), model.confidence),
  );
  const result = await writeReport(
    reportDir,
    heldRows,
    heldOut,
    "held out: scored by the committed fusion from the features its evaluation stored",
  );
  log(
    `train-fusion: ${heldOut}: ${heldRows.length} documents, AUC ${result.roc.auc?.toFixed(3) ?? "n/a"}, ${heldRows.filter((r) => r.label === "genuine" && r.score >= 0.5).length} genuine at score >= 0.5; report in ${reportDir}/`,
  );
}

const levels = Object.fromEntries(CONFIDENCES.map((c) => [c, oofRows.filter((r) => r.confidence === c)]));
console.log(formatEvaluation(report));
console.log("");
console.log(
  `train-fusion: ${rows.length} documents in ${held.length} families, λ=${lambda} (leave-one-family-out log loss ${losses.find((l) => l.lambda === lambda)!.logLoss}), ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const [level, at] of Object.entries(levels))
  console.log(
    `  out-of-family ${level}: n=${at.length} accuracy ${at.length ? (at.filter(right).length / at.length).toFixed(3) : "n/a"}`,
  );
for (const [j, w] of final.weights.entries()) {
  if (w === 0) continue;
  const name = FEATURE_NAMES[j]!;
  const bound = name.startsWith("flag:") ? ` (bound ${final.bounds[name.slice(5)]!.maxWeight})` : "";
  console.log(`  ${name.padEnd(40)} ${w.toFixed(3)}${bound}`);
}
console.log(`  untrained flags: ${final.untrainedFlags.join(", ") || "none"}`);
console.log(`train-fusion: wrote ${values.out} and ${values.report}/`);
