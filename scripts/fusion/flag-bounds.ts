// How much one flag may move the score: no more than the evidence that it separates forged
// from genuine documents allows. A logistic fit on a corpus where no genuine document ever
// raises a flag makes every flag certain (metadata_inconsistent was worth 28 logits), and one
// soft flag then reads as proof. A flag's evidence, at the strength it typically has, may
// move the log-odds by no more than a naive-Bayes model would let it, logit(TPR) − logit(FPR),
// both rates estimated under a prior so that what was never seen is not taken as never
// happening:
//   FPR  (genuine documents raising it + 0.5) / (genuine + 100): before any evidence 0.5%, a
//        flag no genuine document of the corpus raised is still assumed to fire on some;
//   TPR  (forged documents raising it + 1) / (forged + 2).
// The weight's bound is that log likelihood ratio over the flag's mean strength where it is
// raised (strength × coverage, as the model reads it). Measures that carry a flag's evidence
// (features.ts MEASURE_FLAGS) are bounded by the same ratio over their own typical value.
import type { Flag } from "../../src/analysis/flags.ts";
import type { FlagBound } from "../../src/analysis/fusion/model.ts";
import { FEATURE_NAMES, MEASURE_FLAGS, SCORED_FLAGS } from "../../src/analysis/fusion/features.ts";
import type { Bounds, Sample } from "./logistic.ts";

const FPR_PRIOR = { fired: 0.5, documents: 100 } as const;

/**
 * Most a blind spot may weigh, in logits for a detector that saw nothing: a check that could
 * not look hides what it would have found, but it is no evidence. Left free, the fit learnt
 * from which checks the corpus's forgeries defeat (26 logits for a balance table not
 * understood on the small corpus), which no bank's traffic shares.
 */
const BLIND_SPOT_MAX_WEIGHT = 1;

const logit = (p: number): number => Math.log(p / (1 - p));
const round = (v: number): number => Number(v.toPrecision(4));

/** Mean of feature j over the samples where it is positive (1 where it never is). */
const typical = (samples: readonly Sample[], j: number): number => {
  const raised = samples.map((s) => s.features[j]!).filter((v) => v > 0);
  return raised.length === 0 ? 1 : raised.reduce((a, b) => a + b, 0) / raised.length;
};

export function flagBounds(samples: readonly Sample[]): Record<string, FlagBound> {
  const genuine = samples.filter((s) => s.y === 0);
  const forged = samples.filter((s) => s.y === 1);
  const out: Record<string, FlagBound> = {};
  for (const flag of SCORED_FLAGS) {
    const j = FEATURE_NAMES.indexOf(`flag:${flag}`);
    const genuineFired = genuine.filter((r) => r.features[j]! > 0).length;
    const forgedFired = forged.filter((r) => r.features[j]! > 0).length;
    const fpr = (genuineFired + FPR_PRIOR.fired) / (genuine.length + FPR_PRIOR.documents);
    const tpr = (forgedFired + 1) / (forged.length + 2);
    const ratio = Math.max(0, logit(tpr) - logit(fpr));
    const meanStrength = typical(samples, j);
    out[flag] = {
      genuineFired,
      genuine: genuine.length,
      forgedFired,
      forged: forged.length,
      fpr: round(fpr),
      tpr: round(tpr),
      meanStrength: round(meanStrength),
      maxLogLikelihoodRatio: round(ratio),
      maxWeight: round(ratio / meanStrength),
    };
  }
  return out;
}

/**
 * The bounds of feature j: flags within [0, their bound]; their measures within [−∞, the
 * flag's ratio over the measure's typical value]; a measure of no flag at most 0; blind spots
 * within [0, BLIND_SPOT_MAX_WEIGHT].
 */
export const boundsOf = (bounds: Record<string, FlagBound>, samples: readonly Sample[]) => {
  const measureUpper = new Map(
    FEATURE_NAMES.flatMap((name, j) => {
      if (!name.startsWith("measure:")) return [];
      const flag = MEASURE_FLAGS[name as keyof typeof MEASURE_FLAGS];
      return [[j, flag ? (bounds[flag]?.maxLogLikelihoodRatio ?? 0) / typical(samples, j) : 0] as const];
    }),
  );
  return (j: number): Bounds => {
    const name = FEATURE_NAMES[j]!;
    if (name.startsWith("flag:")) return { lower: 0, upper: bounds[name.slice(5) as Flag]?.maxWeight ?? 0 };
    if (name.startsWith("blind:")) return { lower: 0, upper: BLIND_SPOT_MAX_WEIGHT };
    return { lower: -Infinity, upper: measureUpper.get(j) ?? Infinity };
  };
};
