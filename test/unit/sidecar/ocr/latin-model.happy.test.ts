import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type ModelSession, loadModel } from "../../../../sidecar/inference/model-thread.ts";
import { loadModelBytes } from "../../../../sidecar/models/index.ts";
import { cropQuad } from "../../../../sidecar/ocr/crop.ts";
import { ctcLabels } from "../../../../sidecar/ocr/ctc.ts";
import { createDetector } from "../../../../sidecar/ocr/detect.ts";
import { sessionOptions } from "../../../../sidecar/ocr/providers.ts";
import {
  MAX_REC_WIDTH,
  REC_HEIGHT,
  recognitionTensor,
  runRecognition,
  widthBucket,
} from "../../../../sidecar/ocr/recognize.ts";
import type { RgbImage } from "../../../../sidecar/image/rgb.ts";
import { renderPrinted } from "../../../helpers/pages.ts";
import { KNOWN_STATEMENT, seededStatement } from "../../../helpers/statements.ts";

const modelsDir = join(import.meta.dir, "../../../../sidecar/models");
const cpu = sessionOptions(["cpu"]);
let detection: ModelSession;
let shipped: ModelSession;
let latin: ModelSession;
let shippedLabels: string[];
let latinLabels: string[];

beforeAll(async () => {
  [detection, shipped, latin] = await Promise.all([
    loadModel(await loadModelBytes("ocr-detection"), cpu),
    loadModel(await Bun.file(join(modelsDir, "ch_PP-OCRv4_rec_infer.onnx")).bytes(), cpu),
    loadModel(await loadModelBytes("ocr-recognition"), cpu),
  ]);
  shippedLabels = ctcLabels(await Bun.file(join(modelsDir, "ppocr_keys_v1.txt")).bytes());
  latinLabels = ctcLabels(await loadModelBytes("ocr-dictionary"));
});

afterAll(() => Promise.all([detection.release(), shipped.release(), latin.release()]));

async function lineCrops(page: RgbImage): Promise<RgbImage[]> {
  const detector = createDetector({ session: detection, maxSide: 960, maxBatch: 1, maxWaitMs: 0 });
  const quads = await detector.detect(page);
  await detector.close();
  return quads.map((quad) => cropQuad(page, quad, REC_HEIGHT, MAX_REC_WIDTH));
}

async function probabilities(session: ModelSession, crop: RgbImage) {
  const output = (await session.run({ [session.inputNames[0]!]: recognitionTensor([crop]) }))[session.outputNames[0]!]!;
  const [, steps, classes] = output.dims as [number, number, number];
  return { probs: output.data as Float32Array, steps, classes };
}

describe("the Latin recognition model derived from the shipped PP-OCRv4 one", () => {
  const pages = [
    { name: "the known statement at 150 dpi", page: () => renderPrinted(KNOWN_STATEMENT, { dpi: 150 }) },
    { name: "a seeded statement at 200 dpi", page: () => renderPrinted(seededStatement(2), { dpi: 200 }) },
  ];
  for (const { name, page } of pages) {
    test(`reads every line of ${name} exactly as the shipped model does`, async () => {
      const crops = await lineCrops(page());
      expect(crops.length).toBeGreaterThan(10);
      // Batched by width as the engine batches them, so the run stays short.
      const buckets = Map.groupBy(crops, (crop) => widthBucket(crop.width));
      for (const batch of buckets.values()) {
        const expected = await runRecognition(shipped, batch, shippedLabels);
        const read = await runRecognition(latin, batch, latinLabels);
        expect(read.map((line) => line.text)).toEqual(expected.map((line) => line.text));
      }
    }, 30_000);
  }

  test("gives each kept character the shipped model's probability renormalised over the kept characters", async () => {
    const [crop] = await lineCrops(renderPrinted(KNOWN_STATEMENT.slice(4, 5), { dpi: 150 }));
    const a = await probabilities(shipped, crop!);
    const b = await probabilities(latin, crop!);
    expect(b.steps).toBe(a.steps);
    const kept = latinLabels.map((label, i) =>
      i === 0 ? 0 : i === latinLabels.length - 1 ? shippedLabels.length - 1 : shippedLabels.indexOf(label),
    );
    expect(kept.every((c) => c >= 0)).toBe(true);
    let worst = 0;
    for (let t = 0; t < a.steps; t++) {
      const row = (c: number) => a.probs[t * a.classes + c]!;
      const mass = kept.reduce((sum, c) => sum + row(c), 0);
      kept.forEach((c, j) => {
        worst = Math.max(worst, Math.abs(b.probs[t * b.classes + j]! - row(c) / mass));
      });
    }
    expect(worst).toBeLessThan(1e-3);
  }, 30_000);
});
