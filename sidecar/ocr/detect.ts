// PP-OCR text detection: the page is resized (aspect kept, longest side at most `maxSide`,
// both sides rounded to multiples of 32 as the DB network needs), normalised as PaddleOCR's
// det pre-processing does, run through the det model (batched with other pages of the same
// tensor shape), and the probability map turned into rotated boxes in page coordinates.
// Downscaling to `maxSide` is also what bounds memory and time on huge pages: the model
// never sees more than maxSide² pixels, whatever the page size.
import type { ModelSession } from "../inference/model-thread.ts";
import { type RgbImage, resizeRgb } from "../image/rgb.ts";
import { type Normalisation, writeBgrPlanes } from "../image/tensor.ts";
import { type Batcher, createBatcher } from "./batcher.ts";
import { DB_DEFAULTS, type DbOptions, dbBoxes } from "./db-postprocess.ts";
import { clamp } from "../../src/numeric.ts";
import type { Point, Quad } from "./geometry.ts";

const DET_NORMALISATION: Normalisation = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };
const STRIDE = 32;

interface DetectionTensor {
  data: Float32Array;
  width: number;
  height: number;
}

export interface DetectorOptions {
  session: ModelSession;
  maxSide: number;
  maxBatch: number;
  maxWaitMs: number;
  db?: DbOptions;
  /** Told the duration of every session.run and how many pages it served. */
  onRun?(items: number, ms: number): void;
}

export interface Detector {
  detect(image: RgbImage): Promise<Quad[]>;
  close(): Promise<void>;
}

/** Model input size for a page: aspect kept, longest side <= maxSide, multiples of 32. */
function detectionSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const round = (v: number) => Math.max(STRIDE, Math.round((v * scale) / STRIDE) * STRIDE);
  return { width: round(width), height: round(height) };
}

async function detectionTensor(image: RgbImage, maxSide: number): Promise<DetectionTensor> {
  const size = detectionSize(image.width, image.height, maxSide);
  const resized = await resizeRgb(image, size.width, size.height);
  const data = new Float32Array(3 * size.width * size.height);
  writeBgrPlanes(resized.data, size.width, size.height, DET_NORMALISATION, data);
  return { data, width: size.width, height: size.height };
}

export function createDetector(options: DetectorOptions): Detector {
  const { session, maxSide } = options;
  const db = options.db ?? DB_DEFAULTS;
  const batcher: Batcher<DetectionTensor, Float32Array> = createBatcher({
    maxBatch: options.maxBatch,
    maxWaitMs: options.maxWaitMs,
    keyOf: (t) => `${t.height}x${t.width}`,
    run: (tensors) => runDetection(session, tensors, options.onRun),
  });

  const detect = async (image: RgbImage): Promise<Quad[]> => {
    const input = await detectionTensor(image, maxSide);
    const prob = await batcher.submit(input);
    const sx = image.width / input.width;
    const sy = image.height / input.height;
    const toPage = ([x, y]: Point): Point => [clamp(x * sx, 0, image.width), clamp(y * sy, 0, image.height)];
    const quads = dbBoxes(prob, input.width, input.height, db).map(({ quad }) => quad.map(toPage) as Quad);
    return readingOrder(quads);
  };

  return { detect, close: () => batcher.close() };
}

/** One session.run for several pages of the same size; returns each page's probability map. */
async function runDetection(
  session: ModelSession,
  tensors: DetectionTensor[],
  onRun?: (items: number, ms: number) => void,
): Promise<Float32Array[]> {
  const { width, height } = tensors[0]!;
  const plane = 3 * width * height;
  const batch = new Float32Array(plane * tensors.length);
  tensors.forEach((t, i) => {
    batch.set(t.data, i * plane);
  });
  const input = { type: "float32", data: batch, dims: [tensors.length, 3, height, width] } as const;
  const start = performance.now();
  const outputs = await session.run({ [session.inputNames[0]!]: input }, { transfer: true });
  onRun?.(tensors.length, performance.now() - start);
  const output = outputs[session.outputNames[0]!]!;
  const data = output.data as Float32Array;
  const map = width * height;
  return tensors.map((_, i) => data.subarray(i * map, (i + 1) * map));
}

/**
 * Top to bottom, then left to right within a line. Two boxes are on the same line when
 * their tops differ by less than half the smaller box height (PaddleOCR uses a fixed 10 px,
 * which depends on resolution).
 */
export function readingOrder(quads: Quad[]): Quad[] {
  const top = (q: Quad) => Math.min(q[0][1], q[1][1]);
  const left = (q: Quad) => Math.min(q[0][0], q[3][0]);
  const height = (q: Quad) =>
    Math.max(
      1,
      (Math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1]) + Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1])) / 2,
    );
  const sorted = [...quads].sort((a, b) => top(a) - top(b) || left(a) - left(b));
  for (let i = 1; i < sorted.length; i++) {
    for (let j = i; j > 0; j--) {
      const a = sorted[j - 1]!;
      const b = sorted[j]!;
      const sameLine = Math.abs(top(b) - top(a)) < Math.min(height(a), height(b)) / 2;
      if (!sameLine || left(b) >= left(a)) break;
      sorted[j - 1] = b;
      sorted[j] = a;
    }
  }
  return sorted;
}
