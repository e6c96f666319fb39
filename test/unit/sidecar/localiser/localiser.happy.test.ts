// The committed localiser, run the way the sidecar would run it (working image, ONNX session,
// regions): the file is the one the threshold was measured with, it loads in ONNX Runtime and
// gives one probability per 8 x 8 working pixels over the whole page, and a page too small to
// see is reported as unseen. Its validation figures (docs/evaluation/localiser/) show it does
// not yet separate forged pages from genuine ones, so no test claims that it finds an edit;
// it is not switched on in the sidecar or the analysis.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import calibration from "../../../../sidecar/localiser/calibration.json" with { type: "json" };
import { LOCALISER_THRESHOLD, createLocaliserSession, localiseTampering } from "../../../../sidecar/localiser/index.ts";
import { CELL } from "../../../../sidecar/localiser/session.ts";
import { workingImage } from "../../../../sidecar/localiser/working-image.ts";
import manifest from "../../../../sidecar/models/manifest.json" with { type: "json" };
import { loadModelBytes } from "../../../../sidecar/models/index.ts";

const session = await createLocaliserSession({ device: "cpu", intraOpThreads: 2 });
afterAll(() => session.close());

/** A grey page with dark text-like bars, deterministic. */
function page(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3).fill(235);
  for (let y = 40; y + 14 < height; y += 40) {
    for (let x = 30; x < width - 30; x++) {
      if ((x >> 4) % 5 === 4) continue;
      for (let dy = 0; dy < 12; dy++) rgb.fill(40, ((y + dy) * width + x) * 3, ((y + dy) * width + x) * 3 + 3);
    }
  }
  return rgb;
}

describe("the tampered-region localiser", () => {
  test("is the file its threshold was measured with, and the one the manifest records", async () => {
    const digest = createHash("sha256")
      .update(await loadModelBytes("localiser"))
      .digest("hex");
    expect(calibration.sha256).toBe(digest);
    expect(manifest.derived["localiser.onnx"].sha256).toBe(digest);
    expect(LOCALISER_THRESHOLD).toBe(calibration.threshold);
    expect(LOCALISER_THRESHOLD).toBeGreaterThanOrEqual(0.5);
  });

  test("gives one probability per cell of the working image, and regions only at or above the threshold", async () => {
    const [width, height] = [1700, 1100];
    const rgb = page(width, height);
    const image = workingImage(rgb, width, height);
    const cells = await session.run(image);
    expect([cells.rows, cells.cols]).toEqual([image.paddedHeight / CELL, image.paddedWidth / CELL]);
    expect(cells.probabilities.every((p) => p >= 0 && p <= 1)).toBe(true);
    const found = await localiseTampering({ rgb, width, height }, { session });
    expect(found.reliability).toBe(1);
    expect(found.facts.workingFactor).toBe(2);
    for (const region of found.regions) {
      expect(region.score).toBeGreaterThanOrEqual(found.threshold);
      expect(region.box[0] + region.box[2]).toBeLessThanOrEqual(width);
      expect(region.box[1] + region.box[3]).toBeLessThanOrEqual(height);
    }
    expect(found.heatmap.width).toBeLessThanOrEqual(64);
    expect(found.heatmap.height).toBeLessThanOrEqual(64);
  });

  test("sees nothing on a page too small to read, and says so", async () => {
    const found = await localiseTampering(
      { rgb: new Uint8Array(200 * 120 * 3).fill(200), width: 200, height: 120 },
      { session },
    );
    expect(found).toMatchObject({ reliability: 0, regions: [], score: 0 });
  });
});
