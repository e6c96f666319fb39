// The shapes of an evaluation's figures. Their own file so that targets.ts, which judges
// the figures, and evaluation.ts, which computes them and then asks targets.ts for the
// verdicts, both depend on it rather than on each other.
import type { Confidence, DocumentType } from "../../src/analysis/flags.ts";
import type {
  ConfusionMatrix,
  LatencySummary,
  LevelAccuracy,
  Rate,
  ReliabilityBin,
  RocPoint,
  Threshold,
} from "./metrics.ts";
import type { FailedRow } from "./score-row.ts";

export interface Rules {
  fpr1: Threshold;
  fpr5: Threshold;
  operating: Threshold;
}

export type ByRule = Record<keyof Rules, Rate>;

export interface GroupMetrics {
  genuine: number;
  forged: number;
  /**
   * The group's forged against its genuine documents; for a group of one class only (a
   * kind), against every document of the other class in the evaluated set.
   */
  auc: number | null;
  /** Share of the group's forged documents flagged under each rule (TPR). */
  detection: ByRule;
  /** Share of the group's genuine documents flagged under each rule (FPR). */
  falsePositives: ByRule;
}

export interface RunInfo {
  corpus: string;
  split: "train" | "test" | "all";
  mode: string;
  /** Documents selected for the run, analysed or not. */
  documents: number;
  startedAt: string;
  durationMs: number;
}

/** Every figure of an evaluation but the targets judged on them (targets.ts reads this). */
export interface MeasuredEvaluation {
  run: RunInfo;
  rules: Rules;
  roc: { auc: number | null; points: RocPoint[] };
  overall: GroupMetrics;
  byKind: Record<string, GroupMetrics>;
  byDocumentType: Record<string, GroupMetrics>;
  byFormat: Record<string, GroupMetrics>;
  /** By how the documents were made (scripts/corpus/labels.ts familyOf). */
  byFamily: Record<string, GroupMetrics>;
  /**
   * Genuine documents against the forgeries the content and structure checks can see
   * (targets.ts CONTENT_KINDS), all families together and per family: what those checks are
   * judged by, apart from the pixel-only manipulations that no content contradicts.
   */
  overallContent: GroupMetrics;
  byFamilyContent: Record<string, GroupMetrics>;
  documentType: ConfusionMatrix<DocumentType>;
  /** documentType accuracy per family. */
  documentTypeByFamily: Record<string, number | null>;
  /**
   * Each forgery kind judged against the genuine documents of its own family (the same
   * toolchain and capture path): flagged when it scores above the rule that keeps that
   * family's genuine documents at 5% false positives. A photographed forgery is not credited
   * for scoring above clean renders, only above genuine documents photographed the same way.
   */
  sameCapture: Record<string, SameCaptureDetection>;
  calibration: { brier: number | null; bins: ReliabilityBin[] };
  confidence: { levels: LevelAccuracy<Confidence>[]; highIsMostAccurate: boolean | null };
  latency: LatencySummary;
  errors: { count: number; byCode: Record<string, number>; documents: FailedRow[] };
}

export interface SameCaptureDetection {
  family: string;
  kind: string;
  /**
   * The family's genuine documents that set the rule; fewer than MIN_SAME_CAPTURE_GENUINE and
   * nothing is judged.
   */
  genuine: number;
  threshold: Threshold | null;
  detection: Rate;
}
