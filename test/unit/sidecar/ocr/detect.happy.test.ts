import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ModelSession, loadModel } from "../../../../sidecar/inference/model-thread.ts";
import { type Detector, createDetector } from "../../../../sidecar/ocr/detect.ts";
import { loadModelBytes } from "../../../../sidecar/models/index.ts";
import { sessionOptions } from "../../../../sidecar/ocr/providers.ts";
import { renderPrinted } from "../../../helpers/pages.ts";

// On the CPU the engine runs one page per detection call (engine.ts); on a GPU pages of one
// size share a call. This keeps that path tested here, where there is no GPU: the detector
// itself, with batching on.
let session: ModelSession;
let detector: Detector;
const runs: number[] = [];

beforeAll(async () => {
  session = await loadModel(await loadModelBytes("ocr-detection"), sessionOptions(["cpu"]));
  detector = createDetector({ session, maxSide: 1600, maxBatch: 8, maxWaitMs: 20, onRun: (items) => runs.push(items) });
});

afterAll(async () => {
  await detector.close();
  await session.release();
});

describe("the text detector with batching on", () => {
  test("shares one call among pages of one size and gives each page its own boxes", async () => {
    // Page i prints i + 1 lines: a page given another's map would come back with the wrong count.
    const pages = Array.from({ length: 4 }, (_, i) =>
      renderPrinted(
        Array.from({ length: i + 1 }, (__, line) => ({
          text: `Reference ${48213 + line * 1111}`,
          font: "Helvetica",
          size: 14,
          x: 30,
          y: 30 + line * 30,
        })),
        { dpi: 150, widthPt: 300, heightPt: 160 },
      ),
    );
    const boxes = await Promise.all(pages.map((page) => detector.detect(page)));
    expect(boxes.map((quads) => quads.length)).toEqual([1, 2, 3, 4]);
    expect(Math.max(...runs)).toBeGreaterThan(1);
  });
});
