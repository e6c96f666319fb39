// The evaluation as a person reads it on a terminal: the same figures as evaluation.json.
import type { Evaluation } from "./evaluation.ts";
import type { GroupMetrics } from "./evaluation-types.ts";
import type { Rate, Threshold } from "./metrics.ts";
import { formatDuration } from "./progress.ts";
import { table } from "./table.ts";
import type { TargetResult } from "./targets.ts";

const num = (value: number | null, digits = 3) => (value === null ? "n/a" : value.toFixed(digits));
const rate = (r: Rate) => (r.rate === null ? "n/a" : `${r.rate.toFixed(2)} (${r.flagged}/${r.total})`);
const verdict = (pass: boolean | null) => (pass === null ? "N/A " : pass ? "PASS" : "FAIL");

export function formatThreshold(threshold: Threshold): string {
  if (threshold.value === Number.NEGATIVE_INFINITY) return "flag everything";
  return `score ${threshold.inclusive ? "≥" : ">"} ${threshold.value.toFixed(3)}`;
}

function kindTables(evaluation: Evaluation): string[] {
  const groups = Object.entries(evaluation.byKind);
  const forged = groups.filter(([, g]) => g.forged > 0);
  const genuine = groups.filter(([, g]) => g.genuine > 0);
  return [
    "Detection by forgery kind (TPR; AUC against all genuine documents)",
    table(
      ["kind", "n", "AUC", "TPR @1%FPR", "TPR @5%FPR", "TPR @≥0.5"],
      forged.map(([name, g]) => [
        name,
        String(g.forged),
        num(g.auc),
        rate(g.detection.fpr1),
        rate(g.detection.fpr5),
        rate(g.detection.operating),
      ]),
    ),
    "",
    "False positives by genuine kind (share flagged)",
    table(
      ["kind", "n", "@1%FPR", "@5%FPR", "@≥0.5"],
      genuine.map(([name, g]) => [
        name,
        String(g.genuine),
        rate(g.falsePositives.fpr1),
        rate(g.falsePositives.fpr5),
        rate(g.falsePositives.operating),
      ]),
    ),
  ];
}

function groupTable(title: string, groups: Record<string, GroupMetrics>): string[] {
  return [
    `${title} (AUC within the group; a group of one class against every document of the other)`,
    table(
      ["group", "genuine", "forged", "AUC", "TPR @1%FPR", "TPR @5%FPR", "FPR @5%FPR", "TPR @≥0.5", "FPR @≥0.5"],
      Object.entries(groups).map(([name, g]) => [
        name,
        String(g.genuine),
        String(g.forged),
        num(g.auc),
        rate(g.detection.fpr1),
        rate(g.detection.fpr5),
        rate(g.falsePositives.fpr5),
        rate(g.detection.operating),
        rate(g.falsePositives.operating),
      ]),
    ),
  ];
}

function sameCaptureTable(evaluation: Evaluation): string[] {
  const rows = Object.values(evaluation.sameCapture);
  if (rows.length === 0) return [];
  return [
    "Each forgery kind against the genuine documents of its own family (rule: 5% FPR on that family's genuine documents)",
    table(
      ["family", "kind", "genuine", "rule", "detection"],
      rows.map((r) => [
        r.family,
        r.kind,
        String(r.genuine),
        r.threshold ? formatThreshold(r.threshold) : "too few genuine",
        rate(r.detection),
      ]),
      ["left", "left", "right", "left", "right"],
    ),
    "",
  ];
}

function confusion(evaluation: Evaluation): string[] {
  const { classes, counts, accuracy, recall } = evaluation.documentType;
  // Only the types that occur, as actual or predicted, to keep the table narrow.
  const actual = classes.filter((a) => classes.some((p) => counts[a][p] > 0));
  const columns = classes.filter((c) => actual.includes(c) || classes.some((a) => counts[a][c] > 0));
  return [
    `documentType accuracy ${num(accuracy)} (rows: actual, columns: predicted)`,
    table(
      ["actual \\ predicted", ...columns, "recall"],
      actual.map((a) => [a, ...columns.map((p) => String(counts[a][p])), num(recall[a], 2)]),
    ),
  ];
}

function calibration(evaluation: Evaluation): string[] {
  const { brier, bins } = evaluation.calibration;
  const { levels, highIsMostAccurate } = evaluation.confidence;
  return [
    `Calibration (forgeryScore as the probability of forgery): Brier score ${num(brier)}`,
    table(
      ["score bin", "n", "mean predicted", "observed forged"],
      bins.map((bin) => [
        `[${bin.lower.toFixed(1)}, ${bin.upper.toFixed(1)}${bin.upper === 1 ? "]" : ")"}`,
        String(bin.count),
        num(bin.meanPredicted),
        num(bin.observed),
      ]),
    ),
    "",
    `Is confidence right? Accuracy of the verdict (forged ⇔ score ≥ 0.5) per level; high is the most accurate (levels of 5 documents or more): ${highIsMostAccurate === null ? "n/a (no high)" : highIsMostAccurate ? "yes" : "no"}`,
    table(
      ["confidence", "n", "correct", "accuracy"],
      levels.map((level) => [level.level, String(level.count), String(level.correct), num(level.accuracy)]),
    ),
  ];
}

function errors(evaluation: Evaluation): string[] {
  const { count, byCode, documents } = evaluation.errors;
  if (count === 0) return ["Errors: none"];
  return [
    `Errors: ${count} (${Object.entries(byCode)
      .map(([code, n]) => `${code} ${n}`)
      .join(", ")})`,
    table(
      ["kind", "file", "code", "message"],
      documents.map((d) => [d.kind, d.file, d.code, d.message.slice(0, 100)]),
      ["left", "left", "left", "left"],
    ),
  ];
}

function formatTargets(targets: TargetResult[], scopeNote: string | null): string[] {
  const lines = [`Targets${scopeNote ? ` (${scopeNote})` : ""}`];
  for (const target of targets) {
    lines.push(`  ${verdict(target.pass)}  ${target.description}`);
    if (target.checks.length === 1) {
      lines[lines.length - 1] += `: ${num(target.checks[0]!.measured)}`;
      continue;
    }
    for (const check of target.checks)
      lines.push(`          ${verdict(check.pass)}  ${check.name}: ${num(check.measured, 2)} (n=${check.count})`);
  }
  return lines;
}

export function formatEvaluation(evaluation: Evaluation): string {
  const { run, rules, overall, latency } = evaluation;
  const analysed = overall.genuine + overall.forged;
  const scopeNote = run.mode.startsWith("leave-one-family-out")
    ? null
    : "set for documents from families the fusion never saw: train-fusion's leave-one-family-out report, or a set such as the real documents";
  return [
    `docverify evaluation: ${run.corpus}, split ${run.split}, ${run.documents} documents (${analysed} analysed, ${evaluation.errors.count} failed) in ${formatDuration(run.durationMs)}`,
    `analysis: ${run.mode}`,
    `rules: 1% FPR → ${formatThreshold(rules.fpr1)}; 5% FPR → ${formatThreshold(rules.fpr5)}; operating → ${formatThreshold(rules.operating)} (FPR thresholds from ${overall.genuine} genuine scores)`,
    "",
    `ROC AUC ${num(evaluation.roc.auc)} (${overall.genuine} genuine, ${overall.forged} forged)`,
    table(
      ["", "@1%FPR", "@5%FPR", "@≥0.5"],
      [
        [
          "detection (forged flagged)",
          rate(overall.detection.fpr1),
          rate(overall.detection.fpr5),
          rate(overall.detection.operating),
        ],
        [
          "false positives (genuine flagged)",
          rate(overall.falsePositives.fpr1),
          rate(overall.falsePositives.fpr5),
          rate(overall.falsePositives.operating),
        ],
      ],
    ),
    "",
    ...kindTables(evaluation),
    "",
    ...groupTable("By document type", evaluation.byDocumentType),
    "",
    ...groupTable("By format", evaluation.byFormat),
    "",
    ...groupTable("By family (how the documents were made)", evaluation.byFamily),
    "",
    `ROC AUC against the forgeries the content and structure checks can see: ${num(evaluation.overallContent.auc)} (${evaluation.overallContent.genuine} genuine, ${evaluation.overallContent.forged} forged)`,
    ...groupTable("By family, against those forgeries", evaluation.byFamilyContent),
    "",
    ...sameCaptureTable(evaluation),
    ...confusion(evaluation),
    "",
    ...calibration(evaluation),
    "",
    `Latency per document (service-measured): median ${num(latency.medianMs, 0)} ms, p95 ${num(latency.p95Ms, 0)} ms, max ${num(latency.maxMs, 0)} ms (n=${latency.count})`,
    "",
    ...errors(evaluation),
    "",
    ...formatTargets(evaluation.targets, scopeNote),
  ].join("\n");
}
