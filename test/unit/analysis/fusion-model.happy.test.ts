import { describe, expect, test } from "bun:test";
import { notApplicable } from "../../../src/analysis/detector.ts";
import { fuse } from "../../../src/analysis/fusion.ts";
import { FEATURE_NAMES, isScoreFeature } from "../../../src/analysis/fusion/features.ts";
import { checkModel, FUSION_MODEL } from "../../../src/analysis/fusion/model.ts";
import type { DetectorName } from "../../../src/analysis/manifest.ts";
import type { Measurements } from "../../../src/analysis/measurements.ts";
import type { DetectorResult } from "../../../src/analysis/report.ts";

const clean = (
  name: DetectorName,
  facts: Record<string, unknown> = {},
  measurements: Measurements = {},
): DetectorResult => ({ detector: name, evidence: [], facts, coverage: 1, measurements });

/** What the full analysis returns for a passport photo with nothing wrong. */
const cleanPassport = (): DetectorResult[] => [
  clean("jpeg-quantization"),
  clean("double-jpeg-compression", {}, { doubleCompression: { score: 0.1, threshold: 0.5 } }),
  clean("image-metadata"),
  clean("image-quality"),
  clean(
    "mrz",
    {},
    { mrzZones: [{ readConfidently: true, specimen: false, checkDigits: ["valid", "valid", "valid", "valid"] }] },
  ),
  clean("dates"),
  notApplicable(clean("balances")),
  clean("pixel-residuals"),
  clean("copy-move"),
  clean("reading-quality", {}, { ocrMeanConfidence: 0.97 }),
];

describe("the committed fusion model", () => {
  test("loads, and was trained on exactly the features fusionFeatures() computes", () => {
    expect(FUSION_MODEL.features).toEqual([...FEATURE_NAMES]);
    expect(FUSION_MODEL.weights).toHaveLength(FEATURE_NAMES.length);
    expect(FUSION_MODEL.corpus.families.length).toBeGreaterThanOrEqual(8);
    expect(FUSION_MODEL.command).toContain("scripts/train-fusion.ts");
  });

  test("gives quality no weight and no flag a negative weight nor more than its bound", () => {
    FEATURE_NAMES.forEach((name, i) => {
      if (!isScoreFeature(name)) expect(FUSION_MODEL.weights[i]).toBe(0);
      if (name.startsWith("flag:")) {
        expect(FUSION_MODEL.weights[i]).toBeGreaterThanOrEqual(0);
        expect(FUSION_MODEL.weights[i]).toBeLessThanOrEqual(FUSION_MODEL.flagBounds[name.slice(5)]!.maxWeight);
      }
    });
  });

  test("refuses a model in which a flag weighs more than its bound", () => {
    const i = FEATURE_NAMES.indexOf("flag:metadata_inconsistent");
    const weights = FUSION_MODEL.weights.map((w, j) =>
      j === i ? FUSION_MODEL.flagBounds.metadata_inconsistent!.maxWeight + 1 : w,
    );
    expect(() => checkModel({ ...FUSION_MODEL, weights })).toThrow(/bound/);
  });

  test("refuses a model whose features differ from the code's", () => {
    expect(() => checkModel({ ...FUSION_MODEL, features: [...FEATURE_NAMES].reverse() })).toThrow(/features/);
    expect(() => checkModel({ ...FUSION_MODEL, weights: FUSION_MODEL.weights.slice(1) })).toThrow(/weights/);
  });

  test("scores a document without flags under the verdict line", () => {
    const f = fuse(cleanPassport());
    expect(f.flags).toEqual([]);
    expect(f.forgeryScore).toBeLessThan(0.5);
  });

  test("keeps a photo an editor re-saved under the verdict line, naming the editor, without high confidence", () => {
    const detectors = cleanPassport().map((d) =>
      d.detector === "image-metadata"
        ? {
            ...d,
            evidence: [
              {
                flag: "editing_software" as const,
                detector: "image-metadata" as const,
                strength: 0.6,
                message: "Adobe Photoshop",
              },
            ],
          }
        : d,
    );
    const f = fuse(detectors);
    expect(f.flags).toEqual(["editing_software"]);
    expect(f.forgeryScore).toBeLessThan(0.5);
    expect(f.confidence).not.toBe("high");
  });

  test("scores a statement whose balances do not add up as forged", () => {
    const statement: DetectorResult[] = [
      clean("pdf-revisions"),
      clean("pdf-metadata"),
      clean("pdf-annotation-overlay"),
      clean("pdf-text-overlay"),
      clean("pdf-fonts"),
      notApplicable(clean("mrz")),
      clean("dates"),
      {
        ...clean("balances"),
        evidence: [{ flag: "balance_mismatch", detector: "balances", strength: 0.8, message: "closing balance" }],
      },
      clean("pixel-residuals"),
      clean("copy-move"),
      clean("reading-quality", {}, { ocrMeanConfidence: 0.98 }),
    ];
    const f = fuse(statement);
    expect(f.flags).toEqual(["balance_mismatch"]);
    expect(f.forgeryScore).toBeGreaterThanOrEqual(0.5);
  });
});
