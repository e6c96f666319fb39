import { describe, expect, test } from "bun:test";
import { notApplicable } from "../../../src/analysis/detector.ts";
import { fuse, NO_ALTERATION_CEILING, PRIOR_FLAG_WEIGHTS } from "../../../src/analysis/fusion.ts";
import { FEATURE_NAMES } from "../../../src/analysis/fusion/features.ts";
import type { FusionModel } from "../../../src/analysis/fusion/model.ts";
import type { DetectorName } from "../../../src/analysis/manifest.ts";
import type { DetectorResult, Evidence } from "../../../src/analysis/report.ts";

const detector = (
  name: DetectorName,
  evidence: Omit<Evidence, "detector" | "message">[],
  coverage = 1,
  facts: Record<string, unknown> = {},
): DetectorResult => ({
  detector: name,
  evidence: evidence.map((e) => ({ ...e, detector: name, message: e.flag })),
  facts,
  coverage,
});

/** A model by hand: logit = intercept + Σ weight × feature, over the named features only. */
const model = (
  weights: Record<string, number>,
  intercept = -3,
  untrainedFlags: FusionModel["untrainedFlags"] = [],
): FusionModel => ({
  about: "test",
  command: "test",
  corpus: { generator: "test", documents: 0, families: [] },
  date: "2026-11-22",
  lambda: 0.1,
  crossValidation: [],
  features: [...FEATURE_NAMES],
  weights: FEATURE_NAMES.map((name) => weights[name] ?? 0),
  intercept,
  untrainedFlags,
  flagBounds: {},
  confidence: { highMargin: 0.3, lowMargin: 0.1 },
});

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

describe("fusion through a trained model", () => {
  test("the score is the model's probability over the flag strengths", () => {
    const m = model({ "flag:pdf_text_overlay": 6 });
    const f = fuse([detector("pdf-text-operators", [{ flag: "pdf_text_overlay", strength: 0.8 }])], { model: m });
    expect(f.forgeryScore).toBeCloseTo(sigmoid(-3 + 6 * 0.8), 3);
    expect(f.flags).toEqual(["pdf_text_overlay"]);
  });

  test("evidence from a detector that saw little counts for less", () => {
    const m = model({ "flag:editing_software": 6 });
    const full = fuse([detector("pdf-text-operators", [{ flag: "editing_software", strength: 0.9 }], 1)], { model: m });
    const partial = fuse([detector("pdf-text-operators", [{ flag: "editing_software", strength: 0.9 }], 0.3)], {
      model: m,
    });
    expect(partial.forgeryScore).toBeLessThan(full.forgeryScore);
  });

  test("measurements alone never lift a document without a flag to the verdict line", () => {
    const m = model({ "blind:balances": 10 });
    const f = fuse([detector("balances", [], 0)], { model: m });
    expect(f.flags).toEqual([]);
    expect(f.forgeryScore).toBe(NO_ALTERATION_CEILING);
  });

  test("low_quality explains confidence but does not count as a flag that can carry the score", () => {
    const m = model({ "blind:balances": 10 });
    const f = fuse([detector("balances", [], 0), detector("image-quality", [{ flag: "low_quality", strength: 1 }])], {
      model: m,
    });
    expect(f.flags).toEqual(["low_quality"]);
    expect(f.forgeryScore).toBe(NO_ALTERATION_CEILING);
  });

  test("a flag is listed for what its evidence's own measure adds too: a pasted area explains the score it raises", () => {
    const m = model({ "flag:region_tampering": 0, "measure:singleCompressedAreaOverThreshold": 2 }, -3);
    const area: DetectorResult = {
      ...detector("pixel-residuals", [{ flag: "region_tampering", strength: 0.9 }], 1),
      measurements: { residualPages: [{ singleCompressedArea: { tiles: 48, threshold: 12, reliability: 1 } }] },
    };
    const f = fuse([area], { model: m });
    expect(f.forgeryScore).toBeCloseTo(sigmoid(-3 + 2 * 3), 3);
    expect(f.flags).toEqual(["region_tampering"]);
    expect(f.contributions[0]!.contribution).toBeCloseTo(sigmoid(3) - sigmoid(-3), 3);
  });

  test("a flag the training split never raised adds its prior weight", () => {
    const m = model({}, -3, ["duplicate_submission"]);
    const f = fuse([detector("fingerprint", [{ flag: "duplicate_submission", strength: 1 }])], { model: m });
    expect(f.forgeryScore).toBeCloseTo(1 - (1 - sigmoid(-3)) * (1 - PRIOR_FLAG_WEIGHTS.duplicate_submission), 3);
    expect(f.contributions[0]).toMatchObject({
      flag: "duplicate_submission",
      weight: PRIOR_FLAG_WEIGHTS.duplicate_submission,
    });
  });

  test("a flag with no feature (duplicates need a key's history) adds its prior weight too", () => {
    const m = model({}, -3);
    const f = fuse([detector("fingerprint", [{ flag: "duplicate_submission", strength: 1 }])], { model: m });
    expect(f.forgeryScore).toBeCloseTo(1 - (1 - sigmoid(-3)) * (1 - PRIOR_FLAG_WEIGHTS.duplicate_submission), 3);
  });

  test("each flag's contribution is how much lower the score would be without it", () => {
    const m = model({ "flag:region_tampering": 4, "flag:double_jpeg_compression": 1 });
    const f = fuse(
      [
        detector("portrait-consistency", [{ flag: "region_tampering", strength: 1 }]),
        detector("double-jpeg-compression", [{ flag: "double_jpeg_compression", strength: 1 }]),
      ],
      { model: m },
    );
    expect(f.flags).toEqual(["region_tampering", "double_jpeg_compression"]);
    expect(f.contributions[0]!.contribution).toBeCloseTo(sigmoid(2) - sigmoid(-2), 2);
    expect(f.contributions[0]!.weight).toBe(4);
  });
});

describe("provenance concerns alone", () => {
  const m = model({ "flag:editing_software": 10, "flag:metadata_inconsistent": 10, "flag:balance_mismatch": 4 });
  const editor = detector("image-metadata", [
    { flag: "editing_software", strength: 1 },
    { flag: "metadata_inconsistent", strength: 1 },
  ]);

  test("stay under the verdict line and never give high confidence, however the model weighs them", () => {
    const f = fuse([editor], { model: m });
    expect(f.flags).toEqual(["editing_software", "metadata_inconsistent"]);
    expect(f.forgeryScore).toBe(NO_ALTERATION_CEILING);
    expect(f.confidence).not.toBe("high");
  });

  test("add to the score once evidence of alteration is there", () => {
    const alone = fuse([detector("balances", [{ flag: "balance_mismatch", strength: 1 }])], { model: m });
    const withHistory = fuse([editor, detector("balances", [{ flag: "balance_mismatch", strength: 1 }])], { model: m });
    expect(alone.forgeryScore).toBeCloseTo(sigmoid(-3 + 4), 3);
    expect(withHistory.forgeryScore).toBeGreaterThan(0.99);
    expect(withHistory.confidence).toBe("high");
  });
});

describe("MRZ check digits through the fusion", () => {
  test("strong checksum evidence on a confidently read zone makes a high score when the model weighs the flag", () => {
    const m = model({ "flag:mrz_checksum_invalid": 8, "measure:mrzAllCheckDigitsValid": -1 });
    const broken = detector("mrz", [{ flag: "mrz_checksum_invalid", strength: 0.8 }], 1, {
      zones: [{ readConfidently: true, checkDigits: { birthDate: "invalid", composite: "invalid" } }],
    });
    const valid = detector("mrz", [], 1, {
      zones: [{ readConfidently: true, checkDigits: { birthDate: "valid", composite: "valid" } }],
    });
    expect(fuse([broken], { model: m }).forgeryScore).toBeGreaterThan(0.9);
    expect(fuse([valid], { model: m }).forgeryScore).toBeLessThan(0.05);
  });
});

describe("confidence", () => {
  const m = model({ "flag:balance_mismatch": 8 });
  const seen = (evidence: Omit<Evidence, "detector" | "message">[] = []) => detector("balances", evidence, 1);

  test("is high far from the verdict line and low close to it", () => {
    expect(fuse([seen()], { model: m }).confidence).toBe("high");
    expect(fuse([seen([{ flag: "balance_mismatch", strength: 1 }])], { model: m }).confidence).toBe("high");
    expect(fuse([seen([{ flag: "balance_mismatch", strength: 3 / 8 }])], { model: m }).confidence).toBe("low");
  });

  test("drops a level on a degraded image and is never high when a detector failed", () => {
    expect(
      fuse([seen(), detector("image-quality", [{ flag: "low_quality", strength: 1 }])], { model: m }).confidence,
    ).toBe("medium");
    const failed: DetectorResult = {
      detector: "column-alignment",
      evidence: [],
      facts: { failed: "TypeError" },
      coverage: 0,
      status: "failed",
    };
    expect(fuse([seen(), seen(), seen(), failed], { model: m }).confidence).toBe("medium");
  });

  test("is never high when the detectors saw less than half, unless the rest does not apply", () => {
    expect(fuse([seen(), detector("mrz", [], 0), detector("balances", [], 0)], { model: m }).confidence).toBe("medium");
    expect(fuse([seen(), notApplicable(detector("mrz", [], 0))], { model: m }).confidence).toBe("high");
  });

  test("a ceiling caps confidence for analyses that leave evidence unexamined", () => {
    expect(fuse([seen()], { model: m, confidenceCeiling: "medium" }).confidence).toBe("medium");
  });
});
