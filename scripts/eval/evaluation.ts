// From scored rows to every figure the evaluation reports: ROC, detection at fixed FPRs per
// group, documentType confusion, calibration, confidence, latency, errors and targets.
import { CONFIDENCES, DOCUMENT_TYPES, type Confidence, type DocumentType } from "../../src/analysis/flags.ts";
import {
  accuracyByLevel,
  brierScore,
  confusionMatrix,
  flaggedRate,
  groupBy,
  latencySummary,
  reliabilityTable,
  rocAuc,
  rocCurve,
  thresholdAtFpr,
  type ConfusionMatrix,
  type LevelAccuracy,
  type Threshold,
} from "./metrics.ts";
import type { FailedRow, ScoreRow } from "./score-row.ts";
import type {
  ByRule,
  GroupMetrics,
  MeasuredEvaluation,
  Rules,
  RunInfo,
  SameCaptureDetection,
} from "./evaluation-types.ts";
import { CONTENT_KINDS, judgeTargets, type TargetResult } from "./targets.ts";

/** The rule a single verdict uses: forged when forgeryScore ≥ 0.5. */
export const OPERATING_THRESHOLD: Threshold = { value: 0.5, inclusive: true };
const TARGET_FPRS = { fpr1: 0.01, fpr5: 0.05 } as const;

export interface Evaluation extends MeasuredEvaluation {
  targets: TargetResult[];
}

/** Below this many genuine documents a 5% rule is one document's score: nothing is judged. */
const MIN_SAME_CAPTURE_GENUINE = 10;

const isForged = (row: ScoreRow) => row.label === "forged";

/** Keyed `family · kind`, for every forgery kind present in a family. */
function sameCaptureDetection(families: [string, ScoreRow[]][]): Record<string, SameCaptureDetection> {
  const out: Record<string, SameCaptureDetection> = {};
  for (const [family, group] of families) {
    const genuine = group.filter((row) => !isForged(row)).map((row) => row.score);
    const threshold = genuine.length >= MIN_SAME_CAPTURE_GENUINE ? thresholdAtFpr(genuine, TARGET_FPRS.fpr5) : null;
    for (const [kind, forged] of [...groupBy(group.filter(isForged), (row) => row.kind)].sort(([a], [b]) =>
      a.localeCompare(b),
    )) {
      const scores = forged.map((row) => row.score);
      out[`${family} · ${kind}`] = {
        family,
        kind,
        genuine: genuine.length,
        threshold,
        detection: threshold ? flaggedRate(scores, threshold) : { flagged: 0, total: scores.length, rate: null },
      };
    }
  }
  return out;
}

function byRule(scores: number[], rules: Rules): ByRule {
  return {
    fpr1: flaggedRate(scores, rules.fpr1),
    fpr5: flaggedRate(scores, rules.fpr5),
    operating: flaggedRate(scores, rules.operating),
  };
}

function groupMetrics(group: ScoreRow[], all: ScoreRow[], rules: Rules): GroupMetrics {
  const forged = group.filter(isForged);
  const genuine = group.filter((row) => !isForged(row));
  const oneClass = forged.length === 0 || genuine.length === 0;
  const pool = oneClass ? [...group, ...all.filter((row) => isForged(row) === (forged.length === 0))] : group;
  return {
    genuine: genuine.length,
    forged: forged.length,
    auc: rocAuc(pool.map((row) => ({ score: row.score, positive: isForged(row) }))),
    detection: byRule(
      forged.map((row) => row.score),
      rules,
    ),
    falsePositives: byRule(
      genuine.map((row) => row.score),
      rules,
    ),
  };
}

function groupsOf(rows: ScoreRow[], key: (row: ScoreRow) => string, rules: Rules): Record<string, GroupMetrics> {
  const groups = [...groupBy(rows, key).entries()].sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(groups.map(([name, group]) => [name, groupMetrics(group, rows, rules)]));
}

/**
 * Documents a confidence level needs before its accuracy is compared: one right verdict out of one
 * says nothing.
 */
const MIN_LEVEL_COUNT = 5;

/** True when high confidence is at least as accurate as every other level with enough documents. */
function highIsMostAccurate(levels: LevelAccuracy<Confidence>[]): boolean | null {
  const high = levels.find((level) => level.level === "high")?.accuracy;
  if (high === null || high === undefined) return null;
  return levels.every((level) => level.accuracy === null || level.count < MIN_LEVEL_COUNT || level.accuracy <= high);
}

const typeConfusion = (rows: readonly ScoreRow[]): ConfusionMatrix<DocumentType> =>
  confusionMatrix(
    rows.map((row) => ({ actual: row.documentType as DocumentType, predicted: row.predictedType })),
    DOCUMENT_TYPES,
  );

export function evaluate(rows: ScoreRow[], failed: FailedRow[], run: RunInfo): Evaluation {
  const families = [...groupBy(rows, (row) => row.family)].sort(([a], [b]) => a.localeCompare(b));
  const genuineScores = rows.filter((row) => !isForged(row)).map((row) => row.score);
  const rules: Rules = {
    fpr1: thresholdAtFpr(genuineScores, TARGET_FPRS.fpr1),
    fpr5: thresholdAtFpr(genuineScores, TARGET_FPRS.fpr5),
    operating: OPERATING_THRESHOLD,
  };
  const scored = rows.map((row) => ({ score: row.score, positive: isForged(row) }));
  const levels = accuracyByLevel(
    rows.map((row) => ({ level: row.confidence, score: row.score, forged: isForged(row) })),
    CONFIDENCES,
    OPERATING_THRESHOLD,
  );
  const content = rows.filter((row) => !isForged(row) || CONTENT_KINDS.includes(row.kind));
  const byCode: Record<string, number> = {};
  for (const failure of failed) byCode[failure.code] = (byCode[failure.code] ?? 0) + 1;

  const partial: Omit<Evaluation, "targets"> = {
    run,
    rules,
    roc: { auc: rocAuc(scored), points: rocCurve(scored) },
    overall: groupMetrics(rows, rows, rules),
    byKind: groupsOf(rows, (row) => row.kind, rules),
    byDocumentType: groupsOf(rows, (row) => row.documentType, rules),
    byFormat: groupsOf(rows, (row) => row.format, rules),
    byFamily: groupsOf(rows, (row) => row.family, rules),
    overallContent: groupMetrics(content, content, rules),
    byFamilyContent: groupsOf(content, (row) => row.family, rules),
    documentType: typeConfusion(rows),
    documentTypeByFamily: Object.fromEntries(
      families.map(([family, group]) => [family, typeConfusion(group).accuracy]),
    ),
    sameCapture: sameCaptureDetection(families),
    calibration: {
      brier: brierScore(rows.map((row) => ({ p: row.score, forged: isForged(row) }))),
      bins: reliabilityTable(rows.map((row) => ({ p: row.score, forged: isForged(row) }))),
    },
    confidence: { levels, highIsMostAccurate: highIsMostAccurate(levels) },
    latency: latencySummary(rows.map((row) => row.latencyMs)),
    errors: { count: failed.length, byCode, documents: failed },
  };
  return { ...partial, targets: judgeTargets(partial) };
}
