// The localiser's regions become region_tampering evidence with their box, in proportion to
// how well the model could see the page; a page it cannot see accuses no one.
import { describe, expect, test } from "bun:test";
import { detectLocalisedTampering } from "../../../../src/analysis/pixel/localised-tampering.ts";
import type { SidecarLocalisation, SidecarPage } from "../../../../src/sidecar-client/result.ts";

const line = (i: number, confidence: number) => ({
  text: `line ${i}`,
  confidence,
  characters: [],
  polygon: [],
  box: [100, 40 * i, 300, 30] as [number, number, number, number],
});

const localisation = (score: number, reliability = 1): SidecarLocalisation => ({
  score,
  threshold: 0.6,
  reliability,
  regions: score >= 0.6 ? [{ box: [320, 96, 128, 48], score, trace: "localiser" }] : [],
  heatmap: null,
  facts: { workingFactor: 1 },
});

const page = (found: SidecarLocalisation | undefined, confidence = 0.97): SidecarPage => ({
  index: 0,
  width: 1000,
  height: 640,
  dpi: 0,
  sourceWidth: 1000,
  sourceHeight: 640,
  scale: 1,
  lines: [0, 1, 2, 3].map((i) => line(i, confidence)),
  regions: [],
  heatmap: null,
  facts: null,
  lineScores: [],
  forensicFacts: {},
  traces: [],
  copyMoves: [],
  singleCompressedAreas: [],
  ...(found ? { localisation: found } : {}),
});

describe("region tampering from the localiser", () => {
  test("raises the marked area with its box, probability and threshold", () => {
    const result = detectLocalisedTampering([page(localisation(0.8))]);
    expect(result.coverage).toBe(1);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "region_tampering",
      detector: "localiser",
      page: 1,
      box: [320, 96, 128, 48],
      measured: 0.8,
      threshold: 0.6,
    });
    expect(result.evidence[0]!.strength).toBeCloseTo(0.75);
  });

  test("raises nothing below the threshold, and still counts the page as seen", () => {
    const result = detectLocalisedTampering([page(localisation(0.3))]);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
  });

  test("a page too blurred to read or too small to see lowers coverage and accuses no one", () => {
    const blurred = detectLocalisedTampering([page(localisation(0.9), 0.62)]);
    expect(blurred.evidence).toEqual([]);
    expect(blurred.coverage).toBeLessThan(0.5);
    const small = detectLocalisedTampering([page(localisation(0.9, 0.2))]);
    expect(small.evidence).toEqual([]);
    expect(small.coverage).toBeCloseTo(0.2);
  });

  test("a sidecar without the localiser gives coverage 0 and no evidence", () => {
    const result = detectLocalisedTampering([page(undefined)]);
    expect(result).toMatchObject({ evidence: [], coverage: 0 });
  });
});
