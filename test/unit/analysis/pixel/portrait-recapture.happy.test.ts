// The portrait and recapture detectors judge the sidecar's cue traces: a portrait measure past
// its threshold is region_tampering with the portrait's box, a recapture peak past its own is
// recaptured (provenance: alone it never carries the score over the verdict line), so is an
// identity document without colour in a coloured scene (a black-and-white copy photographed),
// and a page where no portrait was found says so with coverage 0.
import { describe, expect, test } from "bun:test";
import { NO_ALTERATION_CEILING, fuse } from "../../../../src/analysis/fusion.ts";
import { detectPortraitTampering } from "../../../../src/analysis/pixel/portrait.ts";
import { detectRecapture } from "../../../../src/analysis/pixel/recapture.ts";
import type { SidecarPage, SidecarTrace } from "../../../../src/sidecar-client/result.ts";

const page = (traces: SidecarTrace[]): SidecarPage => ({
  index: 0,
  width: 947,
  height: 598,
  dpi: 0,
  sourceWidth: 947,
  sourceHeight: 598,
  scale: 1,
  lines: [],
  regions: [],
  heatmap: null,
  facts: null,
  lineScores: [],
  forensicFacts: {},
  traces,
  copyMoves: [],
  singleCompressedAreas: [],
});

const thresholds = { sharpSeamThreshold: 0.6 };
const portrait = (
  measures: { sharpness: number; seam: number; errorLevel: number },
  globalScore: number,
): SidecarTrace => ({
  name: "portrait",
  reliability: 1,
  globalScore,
  facts: {},
  measures: {
    portrait: {
      box: [64, 144, 224, 304],
      ...measures,
      sharpSeam: Math.min(measures.sharpness, measures.seam),
      noise: 0.3,
      blockiness: -0.1,
      strongestMeasure: "sharpSeam",
      ...thresholds,
    },
  },
});

const recapture = (lumaPeak: number, globalScore: number): SidecarTrace => ({
  name: "recapture",
  reliability: 1,
  globalScore,
  facts: {},
  measures: {
    recapture: {
      lumaPeak,
      chromaPeak: 1.5,
      lumaAgreement: 9,
      chromaAgreement: 2,
      patches: 9,
      strongestChannel: "luma",
      lumaPeakThreshold: 2.7,
      chromaPeakThreshold: 3,
      agreementThreshold: 7,
    },
  },
});

describe("portrait checks", () => {
  test("a sharp portrait with a seam past the threshold is region_tampering on the portrait's box, with the measure", () => {
    const result = detectPortraitTampering([page([portrait({ sharpness: 1.4, seam: 1.2, errorLevel: 0.1 }, 2)])]);
    expect(result.coverage).toBe(1);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "region_tampering",
      detector: "portrait-consistency",
      page: 1,
      box: [64, 144, 224, 304],
      measured: 1.2,
      threshold: 0.6,
      strength: 1,
    });
    expect(result.evidence[0]!.message).toContain("seam");
  });

  test("a portrait like the rest of the card raises nothing and shows what was measured", () => {
    const result = detectPortraitTampering([page([portrait({ sharpness: 1.3, seam: 0.2, errorLevel: 0.1 }, 0.33)])]);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
    expect(JSON.stringify(result.facts)).toContain('"seam":0.2');
  });

  test("no portrait found: coverage 0 and the reason", () => {
    const none: SidecarTrace = {
      name: "portrait",
      reliability: 0,
      globalScore: 0,
      facts: { reason: "no portrait-shaped textured area without text" },
      measures: { portrait: thresholds },
    };
    const result = detectPortraitTampering([page([none])]);
    expect(result.coverage).toBe(0);
    expect(result.evidence).toEqual([]);
    expect(JSON.stringify(result.facts)).toContain("no portrait-shaped");
  });
});

const greyDocument = (documentSpread: number, sceneSpread: number, reliability = 1): SidecarTrace => ({
  name: "grey_document",
  reliability,
  globalScore: sceneSpread >= 12 ? 5 / Math.max(documentSpread, 1.25) : 0,
  facts: {},
  measures: {
    greyDocument: { documentSpread, sceneSpread, documentSpreadThreshold: 5, sceneSpreadThreshold: 12 },
  },
});
/** A page whose spectra show nothing but whose copy may be grey; spectra unmeasured (q30). */
const spectraUnreliable: SidecarTrace = { ...recapture(1.2, 0), reliability: 0 };

describe("grey-copy cue", () => {
  test("an identity document without colour in a coloured scene is recaptured", () => {
    const result = detectRecapture([page([spectraUnreliable, greyDocument(2, 40)])], "id");
    expect(result.coverage).toBe(1);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "recaptured",
      detector: "recapture",
      box: [0, 0, 947, 598],
      measured: 2,
      threshold: 5,
      strength: 1,
    });
    expect(result.evidence[0]!.message).toContain("black-and-white copy");
    const fusion = fuse([result]);
    expect(fusion.flags).toContain("recaptured");
    expect(fusion.forgeryScore).toBeLessThanOrEqual(NO_ALTERATION_CEILING);
  });

  test("a colour document, a grey scene, a statement and an unreliable reading raise nothing", () => {
    expect(detectRecapture([page([spectraUnreliable, greyDocument(25, 40)])], "passport").evidence).toEqual([]);
    expect(detectRecapture([page([spectraUnreliable, greyDocument(2, 6)])], "id").evidence).toEqual([]);
    const statement = detectRecapture([page([spectraUnreliable, greyDocument(2, 40)])], "financial");
    expect(statement.evidence).toEqual([]);
    // Black on white by design: the cue is not judged there, so it covers nothing.
    expect(statement.coverage).toBe(0);
    expect(JSON.stringify(statement.facts)).toContain("only identity documents");
    expect(detectRecapture([page([spectraUnreliable, greyDocument(2, 40, 0)])], "id").evidence).toEqual([]);
  });

  test("a sidecar older than the cue: the spectra alone, and the page says so", () => {
    const result = detectRecapture([page([recapture(1.8, 0)])], "id");
    expect(result.evidence).toEqual([]);
    expect(JSON.stringify(result.facts)).toContain("sidecar without the grey-copy cue");
  });
});

describe("recapture cue", () => {
  test("a periodic peak past the threshold is recaptured, over the whole page", () => {
    const result = detectRecapture([page([recapture(3.4, 3.4 / 2.7)])]);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "recaptured",
      detector: "recapture",
      page: 1,
      box: [0, 0, 947, 598],
      measured: 3.4,
      threshold: 2.7,
    });
  });

  test("recaptured alone is a provenance concern: the score stays under the verdict line", () => {
    const result = detectRecapture([page([recapture(6, 2)])]);
    const fusion = fuse([result]);
    expect(fusion.flags).toContain("recaptured");
    expect(fusion.forgeryScore).toBeLessThanOrEqual(NO_ALTERATION_CEILING);
  });

  test("a genuine photo's spectrum raises nothing", () => {
    const result = detectRecapture([page([recapture(1.8, 0)])]);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
  });
});
