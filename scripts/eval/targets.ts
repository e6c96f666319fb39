// The quality targets, judged on an evaluation. They are set for documents scored by a
// model that never saw their family: the leave-one-family-out predictions of
// scripts/train-fusion.ts, and sets no model was tuned on (real public documents). On other
// runs they are still printed, as an indication.
import { FORGERY_KINDS, type ForgeryKind, MANIPULATED_FORGERY_KINDS } from "../corpus/labels.ts";
import type { GroupMetrics, MeasuredEvaluation } from "./evaluation-types.ts";

const TARGETS = {
  auc: 0.95,
  aucAllKinds: 0.95,
  detectionAt5PerKind: 0.85,
  manipulationAt5SameCapture: 0.8,
  documentTypeAccuracy: 0.95,
  genuineFamilyMaxFpr: 0.02,
} as const;

/**
 * Forgery kinds the content and structure checks can see (PDF edits, MRZ, balances, retyped
 * text, metadata): the detection and AUC targets are theirs. Manipulations only pixels show
 * (cloned digits, spliced portraits and fields, re-saves) are reported beside them and judged by
 * the pixel detectors' own targets, and by an AUC over every forgery.
 */
export const CONTENT_KINDS: readonly string[] = FORGERY_KINDS.filter(
  (k) => k.startsWith("pdf_") || k.startsWith("mrz_") || k === "image_retype",
);
/**
 * Manipulations of a document image as fraudsters make them now (a portrait swapped, a field
 * pasted, inpainted and retyped, a forgery photographed or recaptured to hide its traces):
 * each judged against genuine documents captured the same way (evaluation.ts sameCapture).
 */
const MANIPULATION_KINDS: readonly ForgeryKind[] = [
  "image_splice_portrait",
  "image_splice_field",
  "pdf_forged_photographed",
  ...MANIPULATED_FORGERY_KINDS,
];

interface TargetCheck {
  name: string;
  /** null: nothing to measure (e.g. the kind is absent from this run). */
  measured: number | null;
  count: number;
  pass: boolean | null;
}

export interface TargetResult {
  id: keyof typeof TARGETS;
  description: string;
  /** false if any check fails; null if none fails but one could not be measured. */
  pass: boolean | null;
  checks: TargetCheck[];
}

const atLeast = (measured: number | null, target: number) => (measured === null ? null : measured >= target);
const atMost = (measured: number | null, target: number) => (measured === null ? null : measured <= target);

function combine(checks: TargetCheck[]): boolean | null {
  if (checks.some((check) => check.pass === false)) return false;
  if (checks.length === 0 || checks.some((check) => check.pass === null)) return null;
  return true;
}

function result(id: keyof typeof TARGETS, description: string, checks: TargetCheck[]): TargetResult {
  return { id, description, pass: combine(checks), checks };
}

const missing = (name: string): TargetCheck => ({ name, measured: null, count: 0, pass: null });

/** The AUC of all documents and of each group (family), each against `target`. */
const aucChecks = (all: GroupMetrics, groups: Record<string, GroupMetrics>, target: number): TargetCheck[] =>
  [["all documents", all] as const, ...Object.entries(groups)].map(([name, g]) => ({
    name,
    measured: g.auc,
    count: g.genuine + g.forged,
    pass: atLeast(g.auc, target),
  }));

export function judgeTargets(evaluation: MeasuredEvaluation): TargetResult[] {
  const families = Object.entries(evaluation.byFamily);
  const rowsTyped = Object.values(evaluation.documentType.counts).reduce(
    (sum, row) => sum + Object.values<number>(row).reduce((s, n) => s + n, 0),
    0,
  );
  return [
    result(
      "auc",
      `ROC AUC ≥ ${TARGETS.auc} of genuine documents against the forgeries the content and structure checks can see, overall and on every family`,
      aucChecks(evaluation.overallContent, evaluation.byFamilyContent, TARGETS.auc),
    ),
    result(
      "aucAllKinds",
      `ROC AUC ≥ ${TARGETS.aucAllKinds} of genuine documents against every forgery, pixel-only manipulations too, overall and on every family`,
      aucChecks(evaluation.overall, evaluation.byFamily, TARGETS.aucAllKinds),
    ),
    result(
      "detectionAt5PerKind",
      `detection at 5% FPR ≥ ${TARGETS.detectionAt5PerKind} for every forgery kind the content and structure checks can see`,
      CONTENT_KINDS.map((name) => {
        const group: GroupMetrics | undefined = evaluation.byKind[name];
        if (!group) return missing(name);
        const rate = group.detection.fpr5.rate;
        return { name, measured: rate, count: group.forged, pass: atLeast(rate, TARGETS.detectionAt5PerKind) };
      }),
    ),
    result(
      "manipulationAt5SameCapture",
      `detection ≥ ${TARGETS.manipulationAt5SameCapture} for every image manipulation in every family, at 5% FPR on that family's genuine documents`,
      Object.values(evaluation.sameCapture)
        .filter((entry) => (MANIPULATION_KINDS as readonly string[]).includes(entry.kind))
        .map((entry) => ({
          name: `${entry.family} · ${entry.kind}`,
          measured: entry.detection.rate,
          count: entry.detection.total,
          pass: atLeast(entry.detection.rate, TARGETS.manipulationAt5SameCapture),
        })),
    ),
    result(
      "documentTypeAccuracy",
      `documentType accuracy ≥ ${TARGETS.documentTypeAccuracy}, overall and on every family`,
      [
        {
          name: "all documents",
          measured: evaluation.documentType.accuracy,
          count: rowsTyped,
          pass: atLeast(evaluation.documentType.accuracy, TARGETS.documentTypeAccuracy),
        },
        ...families.map(([name, g]) => {
          const measured = evaluation.documentTypeByFamily[name] ?? null;
          return { name, measured, count: g.genuine + g.forged, pass: atLeast(measured, TARGETS.documentTypeAccuracy) };
        }),
      ],
    ),
    // Judged at the verdict line, the threshold a bank acts on: a genuine document there is
    // a customer accused.
    result(
      "genuineFamilyMaxFpr",
      `at most ${TARGETS.genuineFamilyMaxFpr * 100}% of any family's genuine documents at the verdict line (score ≥ 0.5)`,
      families
        .filter(([, g]) => g.genuine > 0)
        .map(([name, g]) => {
          const rate = g.falsePositives.operating.rate;
          return { name, measured: rate, count: g.genuine, pass: atMost(rate, TARGETS.genuineFamilyMaxFpr) };
        }),
    ),
  ];
}
