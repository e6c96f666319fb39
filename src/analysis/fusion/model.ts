// The trained fusion model (model.json, written by scripts/train-fusion.ts) and its one
// use: a probability of forgery from a feature vector. The file is checked as it loads: a
// model trained on other features than fusionFeatures() computes would score nonsense, so
// it fails at start-up instead.
import raw from "./model.json";
import { FLAGS, type Flag } from "../flags.ts";
import { FEATURE_NAMES, isScoreFeature } from "./features.ts";

/**
 * How often a flag fired in training and what that allows it to weigh
 * (scripts/fusion/flag-bounds.ts).
 */
export interface FlagBound {
  /** Genuine documents that raised the flag, and how many there were. */
  genuineFired: number;
  genuine: number;
  forgedFired: number;
  forged: number;
  fpr: number;
  tpr: number;
  /** Mean strength of the flag where it was raised. */
  meanStrength: number;
  /** Highest log likelihood ratio the flag's evidence may carry. */
  maxLogLikelihoodRatio: number;
  /** Highest weight the flag may have, in logits per unit of strength. */
  maxWeight: number;
}

export interface FusionModel {
  about: string;
  /** The commands that produced this file, from corpus to weights. */
  command: string;
  /**
   * The corpus it was trained on: every family of it (scored by scripts/evaluate.ts --split all).
   */
  corpus: { generator: string; documents: number; families: string[] };
  /** When the training split was evaluated (YYYY-MM-DD). */
  date: string;
  lambda: number;
  /** Mean log loss of each λ tried, every family predicted by a model fitted on the others. */
  crossValidation: Array<{ lambda: number; logLoss: number }>;
  features: string[];
  /** Per feature, in the order of `features`, logit units per unit of the feature. */
  weights: number[];
  intercept: number;
  /**
   * Flags the training split never raised: the model cannot weigh them, the fusion's prior weights
   * do.
   */
  untrainedFlags: Flag[];
  /**
   * Per flag, how often it fired on the corpus's genuine and forged documents and the highest
   * weight that allows (scripts/fusion/flag-bounds.ts): no flag weighs more than the evidence
   * that it separates forged from genuine documents.
   */
  flagBounds: Record<string, FlagBound>;
  /**
   * Distance of the score from 0.5 at and beyond which the verdict was right often enough to be
   * high confidence; below lowMargin, low.
   */
  confidence: { highMargin: number; lowMargin: number };
}

export function checkModel(model: FusionModel, names: readonly string[] = FEATURE_NAMES): FusionModel {
  if (model.features.length !== names.length || model.features.some((f, i) => f !== names[i])) {
    throw new Error(
      "fusion model: its features are not those fusionFeatures() computes; retrain with scripts/train-fusion.ts",
    );
  }
  if (model.weights.length !== names.length || ![...model.weights, model.intercept].every(Number.isFinite)) {
    throw new Error("fusion model: weights do not match the features");
  }
  if (model.weights.some((w, i) => w !== 0 && !isScoreFeature(names[i]!)))
    throw new Error("fusion model: quality features may not move the score");
  if (!model.untrainedFlags.every((f) => (FLAGS as readonly string[]).includes(f)))
    throw new Error("fusion model: unknown untrained flag");
  if (
    names.some(
      (name, i) =>
        name.startsWith("flag:") && model.weights[i]! > (model.flagBounds[name.slice(5)]?.maxWeight ?? 0) + 1e-9,
    )
  ) {
    throw new Error("fusion model: a flag weighs more than its bound");
  }
  return model;
}

export const FUSION_MODEL: FusionModel = checkModel(raw as FusionModel);

export const logit = (model: FusionModel, features: readonly number[]): number =>
  model.intercept + model.weights.reduce((sum, w, i) => sum + w * (features[i] ?? 0), 0);

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
