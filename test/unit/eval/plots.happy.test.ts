import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { drawRoc, drawScoreHistogram, histogram } from "../../../scripts/eval/plots.ts";
import { rocAuc, rocCurve } from "../../../scripts/eval/metrics.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const genuine = [0.02, 0.05, 0.1, 0.1, 0.2, 0.35, 0.5];
const forged = [0.3, 0.55, 0.7, 0.8, 0.95, 1];
const items = [
  ...genuine.map((score) => ({ score, positive: false })),
  ...forged.map((score) => ({ score, positive: true })),
];

async function expectPng(png: Buffer, width: number, height: number) {
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const meta = await sharp(png).metadata();
  expect(meta.format).toBe("png");
  expect(meta.width).toBe(width);
  expect(meta.height).toBe(height);
}

/** Share of pixels darker than mid-grey in a band: text drawn with the committed font. */
async function darkShare(png: Buffer, top: number, height: number): Promise<number> {
  const { data, info } = await sharp(png)
    .extract({ left: 0, top, width: 720, height })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (const value of data) if (value < 128) dark++;
  return dark / (info.width * info.height);
}

describe("plots", () => {
  test("the ROC curve is a valid 720×560 PNG", async () => {
    const plot = drawRoc({
      points: rocCurve(items),
      auc: rocAuc(items),
      marks: [{ label: "5% FPR", fpr: 0, tpr: 0.67 }],
      subtitle: "test split, 13 documents",
    });
    await expectPng(plot.png, 720, 560);
    // 40 of the 42 (forged, genuine) pairs are ordered right.
    expect(plot.svg).toContain("AUC 0.952");
  });

  test("the score histogram is a valid 720×560 PNG", async () => {
    const plot = drawScoreHistogram({
      genuine,
      forged,
      lines: [{ label: "score ≥ 0.5", score: 0.5 }],
      subtitle: "test split",
    });
    await expectPng(plot.png, 720, 560);
  });

  test("titles are drawn with the committed font, not left blank for want of system fonts", async () => {
    const plot = drawScoreHistogram({ genuine, forged, lines: [], subtitle: "test split" });
    expect(await darkShare(plot.png, 10, 28)).toBeGreaterThan(0.01);
  });

  test("an empty run still draws (no curve to speak of, no bars)", async () => {
    await expectPng(drawRoc({ points: rocCurve([]), auc: null, marks: [], subtitle: "nothing" }).png, 720, 560);
    await expectPng(drawScoreHistogram({ genuine: [], forged: [], lines: [], subtitle: "nothing" }).png, 720, 560);
  });
});

describe("histogram bins", () => {
  test("twenty equal bins over [0, 1], with a score of 1 in the last", () => {
    const counts = histogram([0, 0.049, 0.05, 0.5, 0.999, 1]);
    expect(counts).toHaveLength(20);
    expect(counts[0]).toBe(2);
    expect(counts[1]).toBe(1);
    expect(counts[10]).toBe(1);
    expect(counts[19]).toBe(2);
  });
});
