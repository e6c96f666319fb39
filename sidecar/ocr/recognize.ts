// PP-OCRv4 text recognition: line crops 48 px high (the model's fixed input height),
// normalised to [-1, 1] in BGR order as PaddleOCR's resize_norm_img does, padded on the right
// with zeros to a common width, decoded with CTC. Crops are grouped into width buckets and
// batched across concurrent pages, so one session.run serves lines of similar width from
// many documents without padding a short word to the width of a long line.
import type { ModelSession, ModelTensor } from "../inference/model-thread.ts";
import type { RgbImage } from "../image/rgb.ts";
import { type Normalisation, writeBgrPlanes } from "../image/tensor.ts";
import { type Batcher, createBatcher } from "./batcher.ts";
import { type Decoded, ctcGreedy } from "./ctc.ts";

export const REC_HEIGHT = 48;
/**
 * PaddleOCR pads every batch to at least rec_image_shape's width, 320; the model was trained so.
 */
const MIN_WIDTH = 320;
const WIDTH_BUCKETS = [320, 480, 640, 960, 1280, 1920, 2560, 3200];
/** Longer lines are squeezed to this width: it bounds one crop's tensor at 1.8 MB. */
export const MAX_REC_WIDTH = WIDTH_BUCKETS.at(-1)!;
const REC_NORMALISATION: Normalisation = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

export interface RecognizerOptions {
  session: ModelSession;
  labels: readonly string[];
  maxBatch: number;
  maxWaitMs: number;
  /** Told the duration of every session.run and how many crops it served. */
  onRun?(items: number, ms: number): void;
}

export interface Recognizer {
  recognize(crops: RgbImage[]): Promise<Decoded[]>;
  close(): Promise<void>;
}

export function widthBucket(width: number): number {
  return WIDTH_BUCKETS.find((b) => width <= b) ?? MAX_REC_WIDTH;
}

/** The batch tensor for crops of height REC_HEIGHT: [n, 3, 48, W], W the widest crop (>= 320). */
export function recognitionTensor(crops: RgbImage[]): ModelTensor {
  const width = Math.max(MIN_WIDTH, ...crops.map((c) => c.width));
  const item = 3 * REC_HEIGHT * width;
  const data = new Float32Array(item * crops.length);
  crops.forEach((crop, i) => {
    writeBgrPlanes(crop.data, crop.width, REC_HEIGHT, REC_NORMALISATION, data, i * item, width);
  });
  return { type: "float32", data, dims: [crops.length, 3, REC_HEIGHT, width] };
}

export async function runRecognition(
  session: ModelSession,
  crops: RgbImage[],
  labels: readonly string[],
  onRun?: (items: number, ms: number) => void,
): Promise<Decoded[]> {
  const input = recognitionTensor(crops);
  const start = performance.now();
  const outputs = await session.run({ [session.inputNames[0]!]: input }, { transfer: true });
  onRun?.(crops.length, performance.now() - start);
  const output = outputs[session.outputNames[0]!]!;
  const [n, steps, classes] = output.dims as [number, number, number];
  if (classes !== labels.length)
    throw new Error(`recognition model has ${classes} classes, dictionary gives ${labels.length}`);
  const probs = output.data as Float32Array;
  return Array.from({ length: n }, (_, i) => ctcGreedy(probs, i * steps * classes, steps, labels));
}

export function createRecognizer(options: RecognizerOptions): Recognizer {
  const { session, labels } = options;
  const batcher: Batcher<RgbImage, Decoded> = createBatcher({
    maxBatch: options.maxBatch,
    maxWaitMs: options.maxWaitMs,
    keyOf: (crop) => String(widthBucket(crop.width)),
    run: (crops) => runRecognition(session, crops, labels, options.onRun),
  });
  return {
    recognize: (crops) => Promise.all(crops.map((crop) => batcher.submit(crop))),
    close: () => batcher.close(),
  };
}
