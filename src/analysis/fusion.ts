// From evidence to forgeryScore, flags and confidence, in a way a person can retrace:
//   flag strength  f = 1 − Π(1 − sᵢ·cᵢ)   over the flag's evidence (strength sᵢ, detector coverage cᵢ)
//   contribution   k = w_flag · f         (FLAG_WEIGHTS below)
//   forgeryScore     = 1 − Π(1 − k)       over flags (noisy-OR)
// Every flag listed has evidence, and the score is made of listed flags only, so there
// is no score without a flag. Confidence comes from coverage: what the detectors could
// see. Low coverage lowers confidence; it never raises the score.
import type { Confidence, Flag } from "./flags";
import type { DetectorResult, Evidence } from "./report";

/**
 * How far one flag, fully established, moves the score. Traces that benign histories
 * also leave (a re-save, metadata quirks) weigh little; traces only an edit leaves
 * (text painted over text, pasted regions, broken check digits) weigh most. Quality
 * flags explain confidence and weigh nothing.
 */
export const FLAG_WEIGHTS: Record<Flag, number> = {
  editing_software: 0.6,
  metadata_inconsistent: 0.45,
  pdf_incremental_update: 0.55,
  pdf_font_inconsistency: 0.7,
  pdf_text_overlay: 0.85,
  pdf_annotation_overlay: 0.75,
  pdf_active_content: 0.5,
  double_jpeg_compression: 0.35,
  region_tampering: 0.9,
  copy_move: 0.9,
  text_inconsistency: 0.7,
  screenshot: 0.35,
  mrz_checksum_invalid: 0.8,
  mrz_mismatch: 0.85,
  document_expired: 0.3,
  balance_mismatch: 0.85,
  duplicate_submission: 0.6,
  low_quality: 0,
};

/**
 * A second compression is what messaging apps do; beside an editor's name or a region
 * that does not match its surroundings, it is the editor's re-save.
 */
const CORROBORATED_DOUBLE_COMPRESSION_WEIGHT = 0.8;
const DOUBLE_COMPRESSION_CORROBORATORS: Flag[] = ["editing_software", "region_tampering", "copy_move"];

export interface FusionOptions {
  /**
   * Highest confidence this analysis can claim, for analyses that by design leave
   * some kind of evidence unexamined (e.g. pixel forensics on images run elsewhere).
   */
  confidenceCeiling?: Confidence;
}

export interface Fusion {
  forgeryScore: number;
  confidence: Confidence;
  flags: Flag[];
  evidence: Evidence[];
  /** Per flag: combined strength and weighted contribution, for the report. */
  contributions: Array<{ flag: Flag; strength: number; weight: number; contribution: number }>;
}

const CONFIDENCE_ORDER: Confidence[] = ["low", "medium", "high"];

/**
 * A check with nothing to judge on this kind of document (no MRZ on a bank statement, no
 * sums on a passport) says so with `applicable: false`: its zero coverage is no blind spot.
 */
export const NOT_APPLICABLE = { applicable: false } as const;
const applies = (d: DetectorResult) => d.facts.applicable !== false;

const confidenceOf = (all: DetectorResult[], flags: Flag[], ceiling: Confidence): Confidence => {
  const detectors = all.filter(applies);
  if (detectors.length === 0) return "low";
  const mean = detectors.reduce((s, d) => s + d.coverage, 0) / detectors.length;
  const failed = detectors.some((d) => d.coverage === 0 && "failed" in d.facts);
  let level: Confidence = mean >= 0.8 && !failed ? "high" : mean >= 0.5 ? "medium" : "low";
  // A tiny or heavily compressed image hides what every detector looks for.
  if (flags.includes("low_quality")) level = level === "high" ? "medium" : "low";
  return CONFIDENCE_ORDER[Math.min(CONFIDENCE_ORDER.indexOf(level), CONFIDENCE_ORDER.indexOf(ceiling))]!;
};

export const fuse = (detectors: DetectorResult[], opts: FusionOptions = {}): Fusion => {
  const coverage = new Map(detectors.map((d) => [d.detector, d.coverage]));
  const evidence = detectors.flatMap((d) => d.evidence).filter((e) => e.strength > 0);
  const byFlag = new Map<Flag, number>();
  for (const e of evidence) {
    const s = e.strength * (coverage.get(e.detector) ?? 1);
    byFlag.set(e.flag, 1 - (1 - (byFlag.get(e.flag) ?? 0)) * (1 - Math.min(1, s)));
  }
  const present = new Set(byFlag.keys());
  const corroborated = DOUBLE_COMPRESSION_CORROBORATORS.some((f) => present.has(f));
  const contributions = [...byFlag].map(([flag, strength]) => {
    const weight =
      flag === "double_jpeg_compression" && corroborated ? CORROBORATED_DOUBLE_COMPRESSION_WEIGHT : FLAG_WEIGHTS[flag];
    return { flag, strength: round(strength), weight, contribution: round(weight * strength) };
  });
  contributions.sort((a, b) => b.contribution - a.contribution);
  const forgeryScore = round(1 - contributions.reduce((p, c) => p * (1 - c.contribution), 1));
  const flags = contributions.map((c) => c.flag);
  return {
    forgeryScore,
    confidence: confidenceOf(detectors, flags, opts.confidenceCeiling ?? "high"),
    flags,
    evidence,
    contributions,
  };
};

const round = (v: number): number => Math.round(v * 1000) / 1000;
