import { expect, test } from "bun:test";
import { fuse } from "../../../src/analysis/fusion.ts";
import { FUSION_MODEL } from "../../../src/analysis/fusion/model.ts";
import type { Flag } from "../../../src/analysis/flags.ts";
import type { DetectorName } from "../../../src/analysis/manifest.ts";
import type { DetectorResult } from "../../../src/analysis/report.ts";

const pixelOnly: DetectorResult[] = [
  {
    detector: "pixel-residuals",
    coverage: 1,
    facts: {},
    evidence: [
      {
        flag: "region_tampering",
        detector: "pixel-residuals",
        strength: 0.6,
        message: "a line stands out",
        page: 1,
        box: [10, 10, 50, 12],
        measured: 3.5,
        threshold: 3.2,
      },
    ],
  },
];

test("a pixel trace alone is kept as evidence, listed only if it moves the score, and cannot give a high score", () => {
  const fusion = fuse(pixelOnly);
  const contribution = fusion.contributions.find((c) => c.flag === "region_tampering")!.contribution;
  expect(fusion.flags.includes("region_tampering")).toBe(contribution >= 0.05);
  expect(fusion.evidence.map((e) => e.flag)).toContain("region_tampering");
  expect(fusion.forgeryScore).toBeLessThan(0.5);
  // Weighed by a model that gives it little, it is not listed.
  const light = fuse(pixelOnly, { model: weighing(0.1, "region_tampering") });
  expect(light.flags).not.toContain("region_tampering");
});

/** A model that weighs only the named flags, `weight` logits each, from an intercept of -2. */
function weighing(weight: number, ...flags: string[]) {
  const model = { ...FUSION_MODEL, weights: FUSION_MODEL.weights.map(() => 0), intercept: -2 };
  for (const flag of flags) model.weights[FUSION_MODEL.features.indexOf(`flag:${flag}`)] = weight;
  return model;
}

/** One detector's single piece of evidence for `flag`, at full strength and coverage. */
const found = (detector: DetectorName, flag: Flag, message: string): DetectorResult => ({
  detector,
  coverage: 1,
  facts: {},
  evidence: [{ flag, detector, strength: 1, message, page: 1 }],
});

const clone = found("copy-move", "copy_move", "an area is a copy");

test("metadata an editor left is listed whatever else is found", () => {
  const fusion = fuse([
    ...pixelOnly,
    {
      detector: "image-metadata",
      coverage: 1,
      facts: {},
      evidence: [
        { flag: "editing_software", detector: "image-metadata", strength: 0.9, message: "Adobe Photoshop 25.0" },
      ],
    },
  ]);
  expect(fusion.flags).toContain("editing_software");
  // A provenance concern: it adds to evidence of alteration, and the pixel traces here are
  // not that evidence, so the editor's name alone keeps the document under the line.
  expect(fusion.forgeryScore).toBeLessThan(0.5);
});

test("a clone alone cannot carry a verdict however much the model weighs it, and adds to one another flag carries", () => {
  const model = weighing(8, "copy_move", "balance_mismatch");
  const balances = found("balances", "balance_mismatch", "a total breaks");
  const alone = fuse([clone], { model });
  expect(alone.flags).toEqual(["copy_move"]);
  expect(alone.forgeryScore).toBeLessThan(0.5);
  const withBalances = fuse([clone, balances], { model });
  expect(withBalances.forgeryScore).toBeGreaterThan(fuse([balances], { model }).forgeryScore);
  expect(withBalances.forgeryScore).toBeGreaterThan(0.5);
});

test("a clone beside error-level lines only carries no verdict: two pixel traces do not corroborate each other", () => {
  // The genuine passport render d0385: a clone of two identical dotted digits and a line that
  // stands out, together 0.84 out of family before this rule.
  const model = weighing(4, "copy_move", "region_tampering", "mrz_mismatch");
  const zone = found("mrz", "mrz_mismatch", "the zone disagrees");
  const lines = { ...pixelOnly[0]!, evidence: pixelOnly[0]!.evidence.map((e) => ({ ...e, strength: 1 })) };
  const pixelPair = fuse([clone, lines], { model });
  expect(pixelPair.flags).toEqual(expect.arrayContaining(["copy_move", "region_tampering"]));
  expect(pixelPair.forgeryScore).toBeLessThan(0.5);
  // Beside a check of another kind, the clone still adds to the verdict.
  expect(fuse([clone, lines, zone], { model }).forgeryScore).toBeGreaterThan(
    fuse([lines, zone], { model }).forgeryScore,
  );
  expect(fuse([clone, lines, zone], { model }).forgeryScore).toBeGreaterThan(0.5);
});

test("a flag that fires on a tenth of genuine documents cannot carry a verdict; the same flag rarely seen on them can", () => {
  const trace = found("pixel-residuals", "region_tampering", "a line stands out");
  const bound = (fpr: number) => ({ ...FUSION_MODEL.flagBounds.region_tampering!, fpr, maxWeight: 8 });
  const model = weighing(8, "region_tampering");
  const common = fuse([trace], {
    model: { ...model, flagBounds: { ...model.flagBounds, region_tampering: bound(0.1) } },
  });
  expect(common.flags).toEqual(["region_tampering"]);
  expect(common.forgeryScore).toBeLessThan(0.5);
  const rare = fuse([trace], {
    model: { ...model, flagBounds: { ...model.flagBounds, region_tampering: bound(0.01) } },
  });
  expect(rare.forgeryScore).toBeGreaterThan(0.5);
});
