import { describe, expect, test } from "bun:test";
import { FEATURE_NAMES, fusionFeatures, isScoreFeature } from "../../../src/analysis/fusion/features.ts";
import { notApplicable } from "../../../src/analysis/detector.ts";
import type { DetectorName } from "../../../src/analysis/manifest.ts";
import type { Measurements, MrzZoneMeasurement } from "../../../src/analysis/measurements.ts";
import type { DetectorResult, Evidence } from "../../../src/analysis/report.ts";

const detector = (
  name: DetectorName,
  evidence: Omit<Evidence, "detector" | "message">[],
  coverage: number,
  facts: Record<string, unknown> = {},
  measurements?: Measurements,
): DetectorResult => ({
  detector: name,
  evidence: evidence.map((e) => ({ ...e, detector: name, message: e.flag })),
  facts,
  coverage,
  ...(measurements ? { measurements } : {}),
});
const measuring = (name: DetectorName, measurements: Measurements) => detector(name, [], 1, {}, measurements);
const failed = (name: DetectorName): DetectorResult => ({
  ...detector(name, [], 0, { failed: "TypeError" }),
  status: "failed",
});

const named = (detectors: DetectorResult[]) => {
  const values = fusionFeatures(detectors);
  return (name: string) => {
    const index = FEATURE_NAMES.indexOf(name);
    expect(index).toBeGreaterThanOrEqual(0);
    return values[index];
  };
};

describe("fusion features", () => {
  test("there is one value per named feature, and names are unique", () => {
    expect(fusionFeatures([])).toHaveLength(FEATURE_NAMES.length);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_NAMES.length);
  });

  test("a flag's feature is its strongest evidence times its detector's coverage", () => {
    const f = named([
      detector(
        "pixel-residuals",
        [
          { flag: "region_tampering", strength: 0.9 },
          { flag: "region_tampering", strength: 0.6 },
        ],
        0.5,
      ),
      detector("portrait-consistency", [{ flag: "region_tampering", strength: 0.4 }], 1),
    ]);
    expect(f("flag:region_tampering")).toBeCloseTo(0.45, 6);
    expect(f("flag:copy_move")).toBe(0);
  });

  test("a detector's blind spot is what it could not see where it applies, so that the format is no feature", () => {
    expect(named([detector("balances", [], 0.8)])("blind:balances")).toBeCloseTo(0.2, 6);
    expect(named([failed("balances")])("blind:balances")).toBe(1);
    expect(named([notApplicable(detector("balances", [], 0.8))])("blind:balances")).toBe(0);
    expect(named([])("blind:balances")).toBe(0);
  });

  test("applicability and failure are read from the typed status, never from the facts", () => {
    const saysSoInFacts = detector("balances", [], 0, { applicable: false, failed: "timeout" });
    const f = named([saysSoInFacts]);
    expect(f("blind:balances")).toBe(1);
    expect(f("quality:meanCoverage")).toBe(0);
    expect(f("quality:failedDetectors")).toBe(0);
  });

  test("measured values come from the detectors' typed measurements", () => {
    const f = named([
      measuring("double-jpeg-compression", { doubleCompression: { score: 0.7, threshold: 0.5 } }),
      measuring("pixel-residuals", {
        residualPages: [
          {
            ela: { highestLineZ: 6.4, threshold: 3.2 },
            singleCompressedArea: { tiles: 30, threshold: 12, reliability: 0.9 },
          },
          { singleCompressedArea: { tiles: 300, threshold: 12, reliability: 0.3 } },
          { singleCompressedArea: { tiles: 11, threshold: 12, reliability: 1 } },
        ],
      }),
      measuring("copy-move", { clonesPerPage: [2, 1] }),
      measuring("mrz", { mrzZones: [{ readConfidently: true, specimen: false, checkDigits: ["valid", "valid"] }] }),
    ]);
    expect(f("measure:doubleCompressionMargin")).toBeCloseTo(0.2, 6);
    // Below its threshold, double compression measures nothing: a page saved once is not suspect
    // for it.
    expect(
      named([measuring("double-jpeg-compression", { doubleCompression: { score: 0.1, threshold: 0.5 } })])(
        "measure:doubleCompressionMargin",
      ),
    ).toBe(0);
    expect(f("measure:elaLineZOverThreshold")).toBeCloseTo(2, 6);
    expect(f("measure:noiseLineZOverThreshold")).toBe(0);
    // The second page's area is larger, but its double compression is too unsure to judge; the
    // third's is below the threshold.
    expect(f("measure:singleCompressedAreaOverThreshold")).toBeCloseTo(2.5, 6);
    expect(f("measure:copyMoveClones")).toBeCloseTo(Math.log(4), 6);
    expect(f("measure:mrzAllCheckDigitsValid")).toBe(1);
  });

  test("facts are for people: what they show, or how they are named, moves no feature", () => {
    const measurements: Measurements = { clonesPerPage: [3] };
    const shown = named([detector("copy-move", [], 1, { pages: [{ clones: 3 }] }, measurements)]);
    const renamed = named([detector("copy-move", [], 1, { pages: [{ verifiedClones: 3 }] }, measurements)]);
    expect(renamed("measure:copyMoveClones")).toBe(shown("measure:copyMoveClones"));
    expect(named([detector("copy-move", [], 1, { pages: [{ clones: 3 }] })])("measure:copyMoveClones")).toBe(0);
  });

  test("an MRZ checks out only when read confidently, not a specimen, with every check digit valid", () => {
    const zone = (z: MrzZoneMeasurement) =>
      named([measuring("mrz", { mrzZones: [z] })])("measure:mrzAllCheckDigitsValid");
    expect(zone({ readConfidently: true, specimen: false, checkDigits: ["valid", "invalid"] })).toBe(0);
    expect(zone({ readConfidently: false, specimen: false, checkDigits: ["valid", "valid"] })).toBe(0);
    expect(zone({ readConfidently: true, specimen: true, checkDigits: ["valid", "valid"] })).toBe(0);
    expect(zone({ readConfidently: true, specimen: false, checkDigits: [] })).toBe(0);
  });

  test("quality is measured for confidence and is never a score feature", () => {
    const f = named([
      detector("reading-quality", [{ flag: "low_quality", strength: 1 }], 1, {}, { ocrMeanConfidence: 0.7 }),
      failed("mrz"),
    ]);
    expect(f("quality:lowQuality")).toBe(1);
    expect(f("quality:ocrMeanConfidence")).toBe(0.7);
    expect(f("quality:meanCoverage")).toBe(0.5);
    expect(f("quality:failedDetectors")).toBe(1);
    expect(FEATURE_NAMES).not.toContain("flag:low_quality");
    expect(FEATURE_NAMES.filter((n) => n.startsWith("quality:")).every((n) => !isScoreFeature(n))).toBe(true);
  });

  test("values that are no number (infinities, NaN) read as nothing measured", () => {
    const f = named([
      measuring("double-jpeg-compression", { doubleCompression: { score: Number.NaN, threshold: 0.5 } }),
      measuring("pixel-residuals", {
        residualPages: [
          { ela: { highestLineZ: Infinity, threshold: 3 }, singleCompressedArea: { tiles: 0, reliability: 0 } },
        ],
      }),
      measuring("reading-quality", { ocrMeanConfidence: Number.NaN }),
    ]);
    expect(f("measure:doubleCompressionMargin")).toBe(0);
    expect(f("measure:elaLineZOverThreshold")).toBe(0);
    expect(f("quality:ocrMeanConfidence")).toBe(0);
  });
});
