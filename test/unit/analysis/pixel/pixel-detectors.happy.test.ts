// The pixel detectors judge the sidecar's measurements as evidence: an outlier counts in
// proportion to its trace's reliability, an unreliable trace only lowers coverage.
import type { DetectorResult } from "../../../../src/analysis/report.ts";
import { describe, expect, test } from "bun:test";
import { notApplicable } from "../../../../src/analysis/detector.ts";
import { fuse } from "../../../../src/analysis/fusion.ts";
import { flagStrengths } from "../../../../src/analysis/fusion/features.ts";
import { FUSION_MODEL } from "../../../../src/analysis/fusion/model.ts";
import { detectCopyMove } from "../../../../src/analysis/pixel/copy-move.ts";
import { detectReadingQuality } from "../../../../src/analysis/pixel/reading-quality.ts";
import { detectRegionTampering } from "../../../../src/analysis/pixel/region-tampering.ts";
import { detectScreenshot } from "../../../../src/analysis/pixel/screenshot.ts";
import type { SidecarPage } from "../../../../src/sidecar-client/result.ts";

const line = (i: number, confidence = 0.98) => ({
  text: `line ${i}`,
  confidence,
  characters: [],
  polygon: [],
  box: [100, 40 * i, 300, 30] as [number, number, number, number],
});

const page = (elaReliability: number, z: number, extra: Partial<SidecarPage> = {}): SidecarPage => ({
  index: 0,
  width: 1240,
  height: 1754,
  dpi: 150,
  sourceWidth: 1240,
  sourceHeight: 1754,
  scale: 1,
  lines: [0, 1, 2, 3].map((i) => line(i)),
  regions: [],
  heatmap: null,
  facts: null,
  lineScores: [0, 1, 2, 3].map((i) => ({ lineIndex: i, scores: { ela: i === 2 ? z : 0.3 } })),
  forensicFacts: {},
  traces: [
    {
      name: "ela",
      reliability: elaReliability,
      globalScore: z,
      facts: {},
      measures: { residual: { lineThreshold: 3.2 } },
    },
    { name: "noise", reliability: 0.02, globalScore: 4, facts: {}, measures: { residual: { lineThreshold: 3.2 } } },
    { name: "copy_move", reliability: 1, globalScore: 0, facts: {}, measures: { copyMove: { minCorrelation: 0.9 } } },
  ],
  copyMoves: [],
  singleCompressedAreas: [],
  ...extra,
});

describe("region tampering from the residual traces", () => {
  test("names the line beyond the threshold with its z-score, box and page", () => {
    const result = detectRegionTampering([page(1, 4.8)]);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "region_tampering",
      page: 1,
      box: [100, 80, 300, 30],
      measured: 4.8,
      threshold: 3.2,
    });
    expect(result.coverage).toBe(1);
  });

  test("weighs the same outlier less on a page where the trace is less reliable, and not at all below half", () => {
    // As the fusion weighs it: the evidence's strength times its detector's coverage.
    const weighed = (reliability: number) =>
      flagStrengths([detectRegionTampering([page(reliability, 4.8)])]).get("region_tampering") ?? 0;
    const [strong, weaker] = [weighed(1), weighed(0.6)];
    expect(weaker).toBeGreaterThan(0);
    expect(weaker).toBeLessThan(strong);
    const unreliable = detectRegionTampering([page(0.3, 9)]);
    expect(unreliable.evidence).toEqual([]);
    expect(unreliable.coverage).toBeCloseTo(0.3);
  });

  test("raises nothing below the threshold", () => {
    expect(detectRegionTampering([page(1, 3.1)]).evidence).toEqual([]);
  });

  const twiceCompressed = (reliability: number, tiles: number) =>
    page(1, 0.5, {
      traces: [
        {
          name: "double_quant",
          reliability: 0.3,
          globalScore: 0.5,
          facts: {},
          measures: { doubleQuant: { lineThreshold: 1.7, areaThreshold: 12, areaReliability: reliability } },
        },
      ],
      singleCompressedAreas: [{ box: [96, 128, 224, 288], tiles, meanZ: 3.4 }],
    });

  test("names an area compressed once on a page compressed twice, with its size in tiles", () => {
    const result = detectRegionTampering([twiceCompressed(1, 63)]);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "region_tampering",
      page: 1,
      box: [96, 128, 224, 288],
      measured: 63,
      threshold: 12,
    });
    expect(result.evidence[0]!.message).toContain("compressed once");
  });

  test("raises nothing for a smaller area, or where the page's double compression is unsure", () => {
    expect(detectRegionTampering([twiceCompressed(1, 11)]).evidence).toEqual([]);
    expect(detectRegionTampering([twiceCompressed(0.4, 63)]).evidence).toEqual([]);
  });
});

describe("copy-move from the clone search", () => {
  test("reports the copied area with its source and correlation", () => {
    const copyMoves = [
      {
        source: [10, 10, 60, 30] as [number, number, number, number],
        target: [500, 10, 60, 30] as [number, number, number, number],
        score: 0.97,
      },
    ];
    const result = detectCopyMove([page(1, 0, { copyMoves })]);
    expect(result.evidence[0]).toMatchObject({
      flag: "copy_move",
      box: [500, 10, 60, 30],
      measured: 0.97,
      threshold: 0.9,
    });
  });

  test("shows how many matches were set aside as a repeating print, and raises nothing for them", () => {
    const traces = [
      {
        name: "copy_move",
        reliability: 1,
        globalScore: 0,
        facts: {},
        measures: { copyMove: { minCorrelation: 0.9, periodicMatches: 5, paperNoise: 0.437 } },
      },
    ];
    const result = detectCopyMove([page(1, 0, { traces })]);
    expect(result.evidence).toEqual([]);
    expect(result.facts).toEqual({
      pages: [{ page: 1, reliability: 1, paperNoise: 0.44, clones: 0, periodicRepeats: 5 }],
    });
    expect(detectCopyMove([page(1, 0)]).facts).toEqual({
      pages: [{ page: 1, reliability: 1, paperNoise: "unknown", clones: 0, periodicRepeats: "unknown" }],
    });
  });
});

describe("screenshots", () => {
  test("a PNG exactly the size of a phone screen, without camera metadata, is a screenshot", () => {
    expect(detectScreenshot({ format: "png", width: 1170, height: 2532, camera: false }).evidence[0]).toMatchObject({
      flag: "screenshot",
      measured: "1170x2532",
    });
  });

  test("a camera's picture, a scan-sized PNG or a JPEG is not judged one", () => {
    expect(detectScreenshot({ format: "png", width: 1170, height: 2532, camera: true }).evidence).toEqual([]);
    expect(detectScreenshot({ format: "png", width: 2480, height: 3508, camera: false }).evidence).toEqual([]);
    const jpeg = detectScreenshot({ format: "jpeg", width: 1080, height: 1920, camera: false });
    expect(jpeg.status).toBe("not-applicable");
    expect(jpeg.facts.applicable).toBe(false);
  });
});

describe("reading quality", () => {
  test("a page with no text read, or text read only with doubt, is low_quality and lowers confidence", () => {
    expect(detectReadingQuality([page(1, 0, { lines: [] })]).evidence[0]).toMatchObject({
      flag: "low_quality",
      measured: 0,
    });
    const blurred = detectReadingQuality([page(1, 0, { lines: [line(0, 0.7), line(1, 0.75)] })]);
    expect(blurred.evidence[0]).toMatchObject({ flag: "low_quality", threshold: 0.85 });
    // Margins of a hand-set model: the mechanism, not the committed calibration.
    const model = { ...FUSION_MODEL, confidence: { highMargin: 0.3, lowMargin: 0.1 } };
    const fusion = fuse([blurred], { model });
    // Quality moves confidence, never the score: the same as with no evidence at all.
    expect(fusion.forgeryScore).toBe(fuse([], { model }).forgeryScore);
    expect(fusion.confidence).toBe("medium");
  });
});

describe("fusion over checks that do not apply", () => {
  test("leaves a check with nothing to judge on this kind of document out of confidence", () => {
    const seen: DetectorResult = { detector: "page-analysis", evidence: [], facts: {}, coverage: 1 };
    const blind: DetectorResult = { detector: "mrz", evidence: [], facts: {}, coverage: 0 };
    const absent = notApplicable(blind);
    const model = { ...FUSION_MODEL, confidence: { highMargin: 0.3, lowMargin: 0.1 } };
    expect(fuse([seen, absent], { model }).confidence).toBe("high");
    expect(fuse([seen, blind], { model }).confidence).toBe("medium");
  });
});
