// One line of scores.jsonl: a corpus document's label beside what the analysis said about
// it. Fusion training reads these lines back, so the evidence keeps each detector's
// strength, not only the flags.
import type { Confidence, DocumentType, Flag } from "../../src/analysis/flags.ts";
import { type CorpusLabel, familyOf } from "../corpus/labels.ts";

export interface EvidenceSummary {
  flag: Flag;
  detector: string;
  strength: number;
}

export interface Verdict {
  forgeryScore: number;
  confidence: Confidence;
  documentType: DocumentType;
  flags: Flag[];
  evidence: EvidenceSummary[];
  /**
   * Wall time of the verification as the evaluator saw it (intake + analysis, or the HTTP round
   * trip).
   */
  latencyMs: number;
  /**
   * The fusion's input (src/analysis/fusion/features.ts), where the detectors were at hand (in
   * process).
   */
  features?: number[];
  /** Strengths of the flags that are no feature (priorFlagStrengths), beside the features. */
  priorStrengths?: Partial<Record<Flag, number>>;
}

export type LabelFields = Pick<
  CorpusLabel,
  "id" | "file" | "label" | "kind" | "documentType" | "format" | "generator" | "family" | "split"
>;

export interface ScoreRow extends LabelFields {
  score: number;
  confidence: Confidence;
  flags: Flag[];
  predictedType: DocumentType;
  latencyMs: number;
  evidence: EvidenceSummary[];
  /** In the order of FEATURE_NAMES; what scripts/train-fusion.ts learns from. */
  features?: number[];
  /**
   * Strengths of the flags that are no feature, which weigh by their prior (fusion.ts); absent
   * from rows evaluated before they were kept.
   */
  priorStrengths?: Partial<Record<Flag, number>>;
}

/** A document the analysis could not score, with the error code it answered. */
export interface FailedRow extends LabelFields {
  code: string;
  message: string;
}

export function toScoreRow(label: CorpusLabel, verdict: Verdict): ScoreRow {
  return {
    ...labelFields(label),
    score: verdict.forgeryScore,
    confidence: verdict.confidence,
    flags: verdict.flags,
    predictedType: verdict.documentType,
    latencyMs: verdict.latencyMs,
    evidence: verdict.evidence,
    ...(verdict.features ? { features: verdict.features } : {}),
    ...(verdict.priorStrengths ? { priorStrengths: verdict.priorStrengths } : {}),
  };
}

export function labelFields(label: CorpusLabel): LabelFields {
  const { id, file, label: truth, kind, documentType, format, generator, split } = label;
  // Corpora generated before families were recorded carry none: their generator and history tell
  // it.
  const family = label.family ?? familyOf(generator, label.history ?? []);
  return { id, file, label: truth, kind, documentType, format, generator, family, split };
}

export const toJsonLines = (rows: readonly object[]): string =>
  rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length ? "\n" : "");
