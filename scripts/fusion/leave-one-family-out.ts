// Leave-one-family-out: every family (how a document was made: generator, layout, capture
// path) is scored by a model fitted on the other families only, with its regularisation
// and its flag bounds chosen on those other families too (nested), so a family's figures
// say how the fusion does on documents made in a way it never saw.
import { flagsOfClass, type Flag } from "../../src/analysis/flags.ts";
import { strengthsOfFeatures, verdictOf } from "../../src/analysis/fusion.ts";
import { FEATURE_NAMES, featuresOfFlag, isScoreFeature, SCORED_FLAGS } from "../../src/analysis/fusion/features.ts";
import { type FlagBound, type FusionModel, sigmoid } from "../../src/analysis/fusion/model.ts";
import { boundsOf, flagBounds } from "./flag-bounds.ts";
import { dot, fitBounded, type Fitted, type Sample } from "./logistic.ts";

const LAMBDAS = [0.003, 0.01, 0.03, 0.1, 0.3];

export interface FamilySample extends Sample {
  family: string;
  /** Strengths of the flags that are no feature: not learnt from, added to the served score. */
  prior: Partial<Record<Flag, number>>;
}

export interface Trained extends Fitted {
  lambda: number;
  bounds: Record<string, FlagBound>;
  /** Flags these samples never raised: the model cannot weigh them (fusion.ts adds their prior). */
  untrainedFlags: Flag[];
}

const familiesOf = (samples: readonly FamilySample[]): string[] => [...new Set(samples.map((s) => s.family))].sort();

/**
 * The feature indexes of the provenance concerns' evidence (flags.ts FLAG_CLASSES): their flags
 * and the measures of those flags, as the served carry test takes them away.
 */
const PROVENANCE_FEATURES = new Set(flagsOfClass("provenance").flatMap(featuresOfFlag));
const isProvenanceEvidence = (j: number): boolean => PROVENANCE_FEATURES.has(j);

/**
 * Fits with the flag bounds these samples give, evidence of alteration first: its weights and
 * the intercept as if no provenance concern were known, then the provenance concerns' weights
 * on top of them. The served verdict asks the alteration evidence to reach the line on its own
 * (fusion.ts verdictOf); fitted together, a revision or an editor's name that always comes
 * with a white box and new text took most of the credit, and the white box alone then fell
 * under the line whenever a refit moved the intercept.
 */
export function train(samples: readonly FamilySample[], lambda: number): Trained {
  const bounds = flagBounds(samples);
  const scored = (j: number) => isScoreFeature(FEATURE_NAMES[j]!);
  const within = boundsOf(bounds, samples);
  const alteration = fitBounded(samples, (j) => scored(j) && !isProvenanceEvidence(j), within, lambda);
  const fitted = fitBounded(samples, (j) => scored(j) && isProvenanceEvidence(j), within, lambda, alteration);
  const untrainedFlags = SCORED_FLAGS.filter((f) =>
    samples.every((s) => s.features[FEATURE_NAMES.indexOf(`flag:${f}`)] === 0),
  );
  return { ...fitted, lambda, bounds, untrainedFlags };
}

const logLoss = (p: number, y: number) => -Math.log(Math.max(1e-12, y === 1 ? p : 1 - p));

/** Mean log loss of each λ when every family is predicted by a model fitted on the others. */
export function lambdaLosses(samples: readonly FamilySample[]): Array<{ lambda: number; logLoss: number }> {
  const families = familiesOf(samples);
  return LAMBDAS.map((lambda) => {
    let loss = 0;
    for (const family of families) {
      const rest = samples.filter((s) => s.family !== family);
      const model = train(rest, lambda);
      for (const s of samples.filter((x) => x.family === family))
        loss += logLoss(sigmoid(model.intercept + dot(model.weights, s.features)), s.y);
    }
    return { lambda, logLoss: Number((loss / samples.length).toFixed(4)) };
  });
}

export const bestLambda = (losses: ReadonlyArray<{ lambda: number; logLoss: number }>): number =>
  losses.reduce((a, b) => (b.logLoss < a.logLoss ? b : a)).lambda;

/** A fusion model object around fitted weights, as model.json holds one. */
export const asModel = (t: Trained, about: Partial<FusionModel> = {}): FusionModel => ({
  about: "",
  command: "",
  corpus: { generator: "", documents: 0, families: [] },
  date: "",
  lambda: t.lambda,
  crossValidation: [],
  features: [...FEATURE_NAMES],
  weights: t.weights,
  intercept: t.intercept,
  untrainedFlags: t.untrainedFlags,
  flagBounds: t.bounds,
  confidence: { highMargin: 0.5, lowMargin: 0 },
  ...about,
});

export interface OutOfFamily {
  family: string;
  lambda: number;
  /** The served score of each of the family's samples, in their order among all samples. */
  scores: Array<{ index: number; score: number; flags: Flag[] }>;
}

/**
 * Each family's scores from a model that never saw it, the λ chosen by leave-one-family-out
 * over the other families; progress on `log`.
 */
export function outOfFamily(samples: readonly FamilySample[], log: (line: string) => void): OutOfFamily[] {
  return familiesOf(samples).map((family) => {
    const rest = samples.filter((s) => s.family !== family);
    const lambda = bestLambda(lambdaLosses(rest));
    const model = asModel(train(rest, lambda));
    const scores = samples.flatMap((s, index) => {
      if (s.family !== family) return [];
      const v = verdictOf(model, s.features, strengthsOfFeatures(s.features, s.prior));
      return [{ index, score: v.forgeryScore, flags: v.flags }];
    });
    log(`train-fusion: ${family} held out (${scores.length} documents), λ=${lambda}`);
    return { family, lambda, scores };
  });
}
