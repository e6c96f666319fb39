// The numbers the fusion model reads, one vector per document, computed the same way at
// run time (fusion.ts) and by the trainer (scripts/train-fusion.ts reads them back from
// the evaluation's scores.jsonl). Four families:
//   flag:<name>      strongest evidence for the flag, strength × its detector's coverage
//   blind:<name>     how much of what a detector should have examined it could not (1 −
//                    coverage where it applies; 0 where it does not apply, so that which
//                    detectors apply, i.e. the format, is no feature). The trainer keeps
//                    their weights at or above 0: a blind spot can hide a forgery, it never
//                    shows a document genuine. A document fully examined without a flag
//                    scores the model's intercept and what its measures add, nothing more.
//   measure:<name>   values the flags threshold away: how far double compression, the
//                    residual line outliers and the clone search went, whether an MRZ
//                    checked out, read from the detectors' typed measurements
//                    (measurements.ts), never from the facts shown. A measure never restates a
//                    flag: fitted together the weight splits between them arbitrarily, and the flag
//                    must carry it. One exception, the pasted area's size: region_tampering also
//                    carries error-level lines that fire on genuine renders, so the area is weighed
//                    apart and counted in the flag's contribution (MEASURE_FLAGS).
//   quality:<name>   what the evidence can bear (OCR confidence, coverage, failures): read
//                    by confidence only; the model gives them no weight, so quality never
//                    moves the score.
import { MRZ_DETECTOR } from "../content/mrz.ts";
import { FLAG_CLASSES, FLAGS, flagsOfClass, type Flag } from "../flags.ts";
import { DOUBLE_COMPRESSION_DETECTOR } from "../image/double-compression.ts";
import { DETECTORS, type DetectorName } from "../manifest.ts";
import type { Measurements, MrzZoneMeasurement, ResidualPageMeasurement } from "../measurements.ts";
import { COPY_MOVE_DETECTOR } from "../pixel/copy-move.ts";
import { READING_QUALITY_DETECTOR } from "../pixel/reading-quality.ts";
import { REGION_TAMPERING_DETECTOR } from "../pixel/region-tampering.ts";
import { MIN_RELIABILITY } from "../pixel/traces.ts";
import type { DetectorResult } from "../report.ts";
import { clamp } from "../../numeric.ts";

/**
 * Flags that describe the document, not a forgery: low_quality explains confidence, and an
 * expired passport is a genuine passport (a matter for the bank's policy). They are listed,
 * and never make a document suspect.
 */
export const INFORMATIONAL_FLAGS: readonly Flag[] = flagsOfClass("informational");
/** Whether any of the flags raises a concern: one that is not merely informational. */
export const concerns = (flags: Iterable<Flag>): boolean => [...flags].some((f) => !INFORMATIONAL_FLAGS.includes(f));
/**
 * Whether any of the flags accuses the document: evidence of alteration. Provenance
 * concerns (an editor, metadata dates, a revision) are what genuine documents' histories
 * show too; alone they never carry the score over the verdict line.
 */
export const accuses = (flags: Iterable<Flag>): boolean => [...flags].some((f) => FLAG_CLASSES[f] === "alteration");
/**
 * Informational flags, duplicate_submission, which no corpus can show, and recaptured, which
 * the committed model's corpus holds no recapture of: they weigh by their prior weight (fusion.ts).
 */
const NOT_SCORED: readonly Flag[] = [...INFORMATIONAL_FLAGS, "duplicate_submission", "recaptured"];
export const SCORED_FLAGS: readonly Flag[] = FLAGS.filter((f) => !NOT_SCORED.includes(f));

/** Detectors whose blind spots are features, in the manifest's order (manifest.ts). */
export const BLIND_SPOT_DETECTORS: readonly DetectorName[] = DETECTORS.filter((d) => d.blindSpotFeature).map(
  (d) => d.name,
);

const MEASURES = [
  "measure:doubleCompressionMargin",
  "measure:elaLineZOverThreshold",
  "measure:noiseLineZOverThreshold",
  "measure:singleCompressedAreaOverThreshold",
  "measure:copyMoveClones",
  "measure:mrzAllCheckDigitsValid",
] as const;

/**
 * Measures that carry a flag's evidence apart from its flag feature: how much a flag moves
 * the score (its contribution, which decides whether it is listed) includes them, and their
 * weights are bounded as the flag's is (scripts/fusion/flag-bounds.ts). A measure of no flag
 * (a zone that checks out) may only lower the score.
 */
export const MEASURE_FLAGS: Readonly<Partial<Record<(typeof MEASURES)[number], Flag>>> = {
  "measure:doubleCompressionMargin": "double_jpeg_compression",
  "measure:elaLineZOverThreshold": "region_tampering",
  "measure:noiseLineZOverThreshold": "region_tampering",
  "measure:singleCompressedAreaOverThreshold": "region_tampering",
  "measure:copyMoveClones": "copy_move",
};

const QUALITY = [
  "quality:lowQuality",
  "quality:ocrMeanConfidence",
  "quality:meanCoverage",
  "quality:failedDetectors",
] as const;
export type QualityFeature = (typeof QUALITY)[number];

export const FEATURE_NAMES: readonly string[] = [
  ...SCORED_FLAGS.map((f) => `flag:${f}`),
  ...BLIND_SPOT_DETECTORS.map((d) => `blind:${d}`),
  ...MEASURES,
  ...QUALITY,
];

/** Per flag, the indexes featuresOfFlag gives: built once, read on every verdict. */
const FLAG_FEATURES: ReadonlyMap<Flag, readonly number[]> = new Map(
  FLAGS.map((flag) => [
    flag,
    [
      FEATURE_NAMES.indexOf(`flag:${flag}`),
      ...Object.entries(MEASURE_FLAGS).flatMap(([measure, f]) => (f === flag ? [FEATURE_NAMES.indexOf(measure)] : [])),
    ].filter((j) => j >= 0),
  ]),
);

/**
 * The feature indexes that carry a flag's evidence: its own feature and its measures. What is
 * taken away when a flag is (the served carry test, fusion.ts; the trainer's provenance stage,
 * scripts/fusion/leave-one-family-out.ts), so both mean the same evidence by it.
 */
export const featuresOfFlag = (flag: Flag): readonly number[] => FLAG_FEATURES.get(flag)!;

/** Whether the model may weigh a feature: everything but quality. */
export const isScoreFeature = (name: string): boolean => !name.startsWith("quality:");

/** A quality feature's value out of a vector in FEATURE_NAMES order. */
export const qualityOf = (features: readonly number[], name: QualityFeature): number =>
  features[FEATURE_NAMES.indexOf(name)] ?? 0;

/** A measured value the fusion can use: a number that is finite (a NaN measures nothing). */
const finite = (v: number | undefined): number | undefined => (v !== undefined && Number.isFinite(v) ? v : undefined);

/**
 * The strengths of the flags that are no feature and not informational (they weigh by their
 * prior weight, fusion.ts), as flagStrengths gives them: what an evaluation keeps beside the
 * features, so that a model scoring stored features adds them as the service does.
 */
export const priorFlagStrengths = (detectors: readonly DetectorResult[]): Partial<Record<Flag, number>> =>
  Object.fromEntries([...flagStrengths(detectors)].filter(([flag, s]) => s > 0 && weighsByPrior(flag)));

/** A flag that moves the score by its prior weight: neither a feature nor informational. */
export const weighsByPrior = (flag: Flag): boolean =>
  !SCORED_FLAGS.includes(flag) && !INFORMATIONAL_FLAGS.includes(flag);

/** Per flag, the strongest evidence as the fusion weighs it: strength × detector coverage. */
export const flagStrengths = (detectors: readonly DetectorResult[]): Map<Flag, number> => {
  const out = new Map<Flag, number>();
  for (const d of detectors) {
    for (const e of d.evidence) {
      const s = clamp(e.strength * d.coverage, 0, 1);
      if (s > (out.get(e.flag) ?? 0)) out.set(e.flag, s);
    }
  }
  return out;
};

/**
 * Highest value over its threshold across the residuals' pages, each page's read by
 * `measured` (nothing where it was not measured). Beyond three thresholds an outlier is an
 * outlier: capped so one extreme page cannot dominate.
 */
const bestRatio = (
  pages: readonly ResidualPageMeasurement[],
  measured: (page: ResidualPageMeasurement) => { value?: number; threshold?: number },
): number => {
  let best = 0;
  for (const page of pages) {
    const { value, threshold } = measured(page);
    if (finite(value) !== undefined && finite(threshold) !== undefined && threshold! > 0)
      best = Math.max(best, value! / threshold!);
  }
  return clamp(best, 0, 3);
};

/** Highest line z over the page's threshold for one residual trace (0 when not measured). */
const lineZRatio = (pages: readonly ResidualPageMeasurement[], trace: "ela" | "noise"): number =>
  bestRatio(pages, (page) => ({ value: page[trace]?.highestLineZ, threshold: page[trace]?.threshold }));

/**
 * Largest area compressed once on a page compressed twice, in multiples of its threshold:
 * the strength of the area evidence region_tampering shows (0 below the threshold, or where
 * the page's double compression is too unsure to judge). Apart from the flag, which it shares
 * with the line outliers, whose error-level lines also fire on genuine renders.
 */
const singleCompressedAreaRatio = (pages: readonly ResidualPageMeasurement[]): number =>
  bestRatio(pages, ({ singleCompressedArea: { tiles, threshold, reliability } }) => {
    const shown = threshold !== undefined && tiles >= threshold && reliability >= MIN_RELIABILITY;
    return shown ? { value: tiles, threshold } : {};
  });

/**
 * How far double compression went beyond its threshold. Nothing below it: left signed, the fit
 * learnt that a clearly single-compressed JPEG is more suspect than one near the line (the
 * corpus's PNG scans saved once by an editor), so an unreadable thumbnail scored 0.26.
 */
const doubleCompressionMargin = (m: Measurements["doubleCompression"]): number => {
  const score = finite(m?.score);
  const threshold = finite(m?.threshold);
  return score === undefined || threshold === undefined ? 0 : clamp(score - threshold, 0, 1);
};

const clones = (perPage: readonly number[]): number => Math.log1p(perPage.reduce((sum, n) => sum + n, 0));

/**
 * 1 when a zone read confidently (not a specimen) passes every check digit it could read,
 * two at least: the converse of mrz_checksum_invalid, which the flag already carries; a zone
 * that checks out is evidence of its own.
 */
const mrzChecksOut = (zones: readonly MrzZoneMeasurement[]): number =>
  zones.some(
    (z) =>
      z.readConfidently &&
      !z.specimen &&
      z.checkDigits.filter((v) => v === "valid").length >= 2 &&
      !z.checkDigits.includes("invalid"),
  )
    ? 1
    : 0;

const blindSpot = (d: DetectorResult | undefined): number =>
  d === undefined || d.status === "not-applicable" ? 0 : 1 - clamp(d.coverage, 0, 1);

const quality = (detectors: readonly DetectorResult[]): Record<QualityFeature, number> => {
  const applicable = detectors.filter((d) => d.status !== "not-applicable");
  return {
    "quality:lowQuality": detectors.some((d) => d.evidence.some((e) => e.flag === "low_quality" && e.strength > 0))
      ? 1
      : 0,
    "quality:ocrMeanConfidence":
      finite(detectors.find((d) => d.detector === READING_QUALITY_DETECTOR)?.measurements?.ocrMeanConfidence) ?? 0,
    "quality:meanCoverage":
      applicable.length === 0 ? 0 : applicable.reduce((s, d) => s + clamp(d.coverage, 0, 1), 0) / applicable.length,
    "quality:failedDetectors": applicable.filter((d) => d.coverage === 0 && d.status === "failed").length,
  };
};

/** The feature vector, in the order of FEATURE_NAMES. */
// Everything a feature needs is in the detector results themselves (format shows in which
// detectors could see anything), so the vector needs no other context and the report's
// detectors alone reproduce the score.
export function fusionFeatures(detectors: readonly DetectorResult[]): number[] {
  const byName = new Map(detectors.map((d) => [d.detector, d]));
  const measured = (name: DetectorName): Measurements => byName.get(name)?.measurements ?? {};
  const strengths = flagStrengths(detectors);
  const qualities = quality(detectors);
  const residualPages = measured(REGION_TAMPERING_DETECTOR).residualPages ?? [];
  const measures: Record<(typeof MEASURES)[number], number> = {
    "measure:doubleCompressionMargin": doubleCompressionMargin(measured(DOUBLE_COMPRESSION_DETECTOR).doubleCompression),
    "measure:elaLineZOverThreshold": lineZRatio(residualPages, "ela"),
    "measure:noiseLineZOverThreshold": lineZRatio(residualPages, "noise"),
    "measure:singleCompressedAreaOverThreshold": singleCompressedAreaRatio(residualPages),
    "measure:copyMoveClones": clones(measured(COPY_MOVE_DETECTOR).clonesPerPage ?? []),
    "measure:mrzAllCheckDigitsValid": mrzChecksOut(measured(MRZ_DETECTOR).mrzZones ?? []),
  };
  return [
    ...SCORED_FLAGS.map((f) => strengths.get(f) ?? 0),
    ...BLIND_SPOT_DETECTORS.map((name) => blindSpot(byName.get(name))),
    ...MEASURES.map((m) => measures[m]),
    ...QUALITY.map((q) => qualities[q]),
  ];
}
