// From evidence to forgeryScore, flags and confidence:
//   features     fusionFeatures(detectors): per flag its strongest evidence × coverage, per
//                detector its blind spot, a few measured values (fusion/features.ts)
//   forgeryScore a logistic regression over them, trained leave-one-family-out on the
//                labelled corpus by scripts/train-fusion.ts (fusion/model.json), each flag's
//                weight bounded by how often it fires on genuine documents
// Flags stay the explanation: every flag listed has evidence, and without evidence of
// alteration (flags.ts FLAG_CLASSES) the score stays under the verdict line whatever the
// measurements and provenance concerns say: an editor's name or a later revision is what
// many genuine files carry, so it never reads as proof. A flag the training corpus never
// raised (duplicate_submission, say) cannot be weighed by the model: it adds its prior
// weight below, noisy-OR. Confidence says how much the evidence can bear
// (fusion/confidence.ts); how well things were read never moves the score, and what could
// not be examined at all (blind spots) only keeps it nearer the prior.
import { FLAG_CLASSES, type Confidence, type Flag } from "./flags.ts";
import { atMost, confidenceLevel } from "./fusion/confidence.ts";
import {
  accuses,
  concerns,
  flagStrengths,
  fusionFeatures,
  FEATURE_NAMES,
  INFORMATIONAL_FLAGS,
  featuresOfFlag,
  SCORED_FLAGS,
  weighsByPrior,
} from "./fusion/features.ts";
import { FUSION_MODEL, logit, sigmoid, type FusionModel } from "./fusion/model.ts";
import type { DetectorResult, Evidence } from "./report.ts";

/**
 * Prior weights, for flags the model could not learn: how far one such flag, fully
 * established, moves the score. Traces only an edit leaves weigh most; quality flags nothing.
 */
export const PRIOR_FLAG_WEIGHTS: Record<Flag, number> = {
  editing_software: 0.6,
  metadata_inconsistent: 0.45,
  pdf_incremental_update: 0.55,
  pdf_font_inconsistency: 0.7,
  pdf_font_substitution: 0.7,
  pdf_text_overlay: 0.85,
  pdf_annotation_overlay: 0.75,
  pdf_active_content: 0.5,
  double_jpeg_compression: 0.35,
  region_tampering: 0.9,
  copy_move: 0.9,
  text_inconsistency: 0.7,
  screenshot: 0.35,
  recaptured: 0.35,
  mrz_checksum_invalid: 0.8,
  mrz_mismatch: 0.85,
  document_expired: 0,
  balance_mismatch: 0.85,
  duplicate_submission: 0.6,
  low_quality: 0,
};

/**
 * Highest score a document without evidence of alteration can get, provenance concerns or
 * not: under the verdict line (0.5).
 */
export const NO_ALTERATION_CEILING = 0.49;

/**
 * Pixel flags listed only when they move the score by at least MATERIAL_CONTRIBUTION. On the
 * labelled corpus's training split (photos, scans, security-printed templates) they fire as
 * often on genuine documents as on forged ones (region_tampering 44% vs 46%, copy_move 39% vs
 * 21%): listed on their own they would accuse one genuine customer in three. Their evidence
 * stays in the stored report for an analyst.
 */
const CORROBORATION_NEEDED: readonly Flag[] = ["region_tampering", "copy_move"];
const MATERIAL_CONTRIBUTION = 0.05;
/**
 * Flags that may add to a verdict but never make one, alone or with region_tampering only.
 * copy_move's weight rests on 3 forged and 2 genuine corpus documents that raise it (it
 * catches none of the corpus's own cloned digits, which their content gives away); a clone
 * found on a genuine scan (a test fixture made by ImageMagick) scored 0.57 on it alone once
 * the refit gave it weight, and a genuine passport render (d0385: two identical dotted digits
 * of a perforated number, beside error-level lines) 0.84 out of family with region_tampering.
 */
const CANNOT_CARRY_ALONE: readonly Flag[] = ["copy_move"];
/**
 * A flag that fires on more than this share of the genuine documents the model was fitted on
 * (model.json flagBounds) is a trace, not proof: it may add to a verdict, never make one.
 * Among the flags of alteration that is region_tampering (63 of 539 genuine corpus
 * documents, a genuine scan or photo in ten; double_jpeg_compression, as common, is
 * provenance and carries nothing anyway): a genuine ImageMagick scan (x0102) reached 0.51 out
 * of family on its error-level and noise lines alone once a refit moved their measures'
 * weights by a tenth. Every other alteration flag fires on none.
 */
const TRACE_FPR = 0.05;
const cannotCarry = (model: FusionModel, flag: Flag): boolean =>
  CANNOT_CARRY_ALONE.includes(flag) || (model.flagBounds[flag]?.fpr ?? 0) > TRACE_FPR;

export interface FusionOptions {
  /**
   * Highest confidence this analysis can claim, for analyses that by design leave
   * some kind of evidence unexamined (e.g. pixel forensics on images run elsewhere).
   */
  confidenceCeiling?: Confidence;
  /** The trained model; the committed one by default (tests pass their own). */
  model?: FusionModel;
}

export interface Fusion {
  forgeryScore: number;
  confidence: Confidence;
  flags: Flag[];
  evidence: Evidence[];
  /**
   * Per flag: its strength (strongest evidence × coverage), its weight (model logit per
   * unit of strength, or the prior weight for a flag the model never saw) and its
   * contribution: how much lower the score would be without it.
   */
  contributions: Array<{ flag: Flag; strength: number; weight: number; contribution: number }>;
}

/**
 * Flags the model cannot weigh: never raised in training, or no feature at all (duplicates need an
 * API key's history).
 */
const byPrior = (model: FusionModel, flag: Flag): boolean =>
  weighsByPrior(flag) || (model.untrainedFlags.includes(flag) && !INFORMATIONAL_FLAGS.includes(flag));

const scoreOf = (model: FusionModel, features: readonly number[], strengths: Map<Flag, number>): number => {
  const untrained = [...strengths.keys()].filter((f) => byPrior(model, f));
  const prior = untrained.reduce((p, f) => p * (1 - PRIOR_FLAG_WEIGHTS[f] * strengths.get(f)!), 1);
  const score = 1 - (1 - sigmoid(logit(model, features))) * prior;
  return accuses(strengths.keys()) ? score : Math.min(score, NO_ALTERATION_CEILING);
};

const listed = (c: { flag: Flag; contribution: number }): boolean =>
  !CORROBORATION_NEEDED.includes(c.flag) || c.contribution >= MATERIAL_CONTRIBUTION;

export interface Verdict {
  forgeryScore: number;
  flags: Flag[];
  contributions: Fusion["contributions"];
}

/**
 * The score, the flags listed and each flag's contribution, from the feature vector and the
 * flags found with their strengths. The fusion and the trainer's out-of-family predictions
 * (scripts/train-fusion.ts) both go through here, so what is reported is what is served.
 */
/**
 * The features and flags without some flags: their own features and the measures of their evidence
 * zeroed.
 */
const without = (features: readonly number[], strengths: Map<Flag, number>, removed: readonly Flag[]) => {
  const own = new Set(removed.flatMap(featuresOfFlag));
  return {
    features: features.map((v, i) => (own.has(i) ? 0 : v)),
    strengths: new Map([...strengths].filter(([f]) => !removed.includes(f))),
  };
};

export const verdictOf = (model: FusionModel, features: readonly number[], strengths: Map<Flag, number>): Verdict => {
  const forgeryScore = scoreOf(model, features, strengths);
  const contributions = [...strengths].map(([flag, strength]) => {
    const index = FEATURE_NAMES.indexOf(`flag:${flag}`);
    const reduced = without(features, strengths, [flag]);
    const weight = byPrior(model, flag) ? PRIOR_FLAG_WEIGHTS[flag] : index < 0 ? 0 : (model.weights[index] ?? 0);
    return {
      flag,
      strength: round(strength),
      weight: round(weight),
      contribution: round(forgeryScore - scoreOf(model, reduced.features, reduced.strengths)),
    };
  });
  contributions.sort((a, b) => b.contribution - a.contribution || a.flag.localeCompare(b.flag));
  const flags = contributions.filter(listed).map((c) => c.flag);
  // No high score without evidence of alteration a person can see, and that evidence must
  // carry the verdict itself: with the provenance concerns and the blind spots taken away,
  // the score must still reach the line. Otherwise a weak trace (a font change a designed
  // template makes, a clone in a form's repeated amount) beside an editor's name, or beside
  // a table the balance check could not read, would let what is no evidence accuse.
  const provenance = [...strengths.keys()].filter((f) => FLAG_CLASSES[f] === "provenance");
  const alteration = without(features, strengths, provenance);
  const seen = alteration.features.map((v, i) => (FEATURE_NAMES[i]!.startsWith("blind:") ? 0 : v));
  const carriers = flags.filter((f) => !cannotCarry(model, f));
  // Nor do two pixel traces that each fire on genuine renders carry one together: beside a
  // clone, the carrier must be a check other than the error-level and noise lines.
  const pixelTracesOnly =
    flags.some((f) => CANNOT_CARRY_ALONE.includes(f)) &&
    carriers.every((f) => CORROBORATION_NEEDED.includes(f) || FLAG_CLASSES[f] !== "alteration");
  const carried = accuses(carriers) && !pixelTracesOnly && scoreOf(model, seen, alteration.strengths) >= 0.5;
  return { forgeryScore: carried ? forgeryScore : Math.min(forgeryScore, NO_ALTERATION_CEILING), flags, contributions };
};

/**
 * The verdict's confidence, at most `ceiling`. A provenance concern alone never makes a
 * verdict sure: it is a question for the history of the file, not an answer about its content.
 */
export const verdictConfidence = (
  score: number,
  features: readonly number[],
  flags: readonly Flag[],
  margins: FusionModel["confidence"],
  ceiling: Confidence = "high",
): Confidence => {
  const cap = concerns(flags) && !accuses(flags) ? atMost(ceiling, "medium") : ceiling;
  return atMost(confidenceLevel(score, features, margins), cap);
};

/**
 * The flags a feature vector shows, with their strengths, and those of the flags that are no
 * feature (`prior`, kept beside the features by the evaluation): what the trainer has of a
 * scored document.
 */
export const strengthsOfFeatures = (
  features: readonly number[],
  prior: Partial<Record<Flag, number>> = {},
): Map<Flag, number> =>
  new Map([
    ...SCORED_FLAGS.flatMap((f) => {
      const s = features[FEATURE_NAMES.indexOf(`flag:${f}`)] ?? 0;
      return s > 0 ? [[f, s] as const] : [];
    }),
    ...(Object.entries(prior) as [Flag, number][]).filter(([f, s]) => s > 0 && weighsByPrior(f)),
  ]);

export const fuse = (detectors: DetectorResult[], opts: FusionOptions = {}): Fusion => {
  const model = opts.model ?? FUSION_MODEL;
  const evidence = detectors.flatMap((d) => d.evidence).filter((e) => e.strength > 0);
  const strengths = new Map([...flagStrengths(detectors)].filter(([, s]) => s > 0));
  // Evidence from a detector that saw nothing (coverage 0) still names its flag: it was found.
  for (const e of evidence) if (!strengths.has(e.flag)) strengths.set(e.flag, 0);
  const features = fusionFeatures(detectors);
  const { forgeryScore, flags, contributions } = verdictOf(model, features, strengths);
  return {
    forgeryScore: round(forgeryScore),
    confidence: verdictConfidence(forgeryScore, features, flags, model.confidence, opts.confidenceCeiling),
    flags,
    evidence,
    contributions,
  };
};

const round = (v: number): number => Math.round(v * 1000) / 1000;
