// The OCR engine the sidecar serves: PP-OCRv4 detection then recognition, one ONNX Runtime
// session per model shared by all requests, each model behind a dynamic batcher (on the CPU,
// recognition takes one line crop per call, which is faster there).
import { type RgbImage, assertRgb } from "../image/rgb.ts";
import { loadModel } from "../inference/model-thread.ts";
import { loadModelBytes } from "../models/index.ts";
import { cropQuad } from "./crop.ts";
import { type CharacterReading, ctcLabels } from "./ctc.ts";
import { createDetector } from "./detect.ts";
import type { Point, Quad } from "./geometry.ts";
import { type Device, chooseExecutionProviders, sessionOptions } from "./providers.ts";
import { MAX_REC_WIDTH, REC_HEIGHT, createRecognizer } from "./recognize.ts";

export interface OcrLine {
  text: string;
  /** Mean probability of the recognised characters, 0..1. */
  confidence: number;
  /** Per character of `text`: its probability and the likeliest alternatives. */
  characters: CharacterReading[];
  /** Corners clockwise from top-left, in page pixels. */
  polygon: [number, number][];
  /** Axis-aligned bounds [x, y, width, height] in whole page pixels. */
  box: [number, number, number, number];
}

export interface OcrEngineOptions {
  device: Device;
  /**
   * Providers already chosen for this process (the sidecar chooses once); else chosen from
   * `device`.
   */
  executionProviders?: string[];
  intraOpThreads?: number;
  interOpThreads?: number;
  /** Longest side of the page as the detector sees it (default DEFAULT_MAX_SIDE). */
  maxSide?: number;
  /** Lines read with less confidence are dropped (default 0.5, PaddleOCR's drop_score). */
  minConfidence?: number;
  /**
   * Larger pages are refused (default 120 megapixels); decoding should have stopped them already.
   */
  maxPixels?: number;
  /**
   * Dynamic batching of model calls; on the CPU recognition runs one crop per call whatever
   * maxBatch says.
   */
  batch: { maxBatch: number; maxWaitMs: number };
  /** Told the duration of every model call (session.run alone) and how many inputs it served. */
  onModelRun?(run: ModelRun): void;
}

export interface ModelRun {
  model: "detection" | "recognition";
  items: number;
  ms: number;
}

export interface OcrEngine {
  readonly executionProviders: string[];
  readImage(image: RgbImage): Promise<OcrLine[]>;
  close(): Promise<void>;
}

/** An image the engine will not read; `reason` is safe to show (no content). */
export class OcrInputError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "OcrInputError";
  }
}

/**
 * Longest side of the page as the detector sees it. PP-OCR's mobile default, 960, shrinks an
 * A4 page photographed or scanned at 150 dpi (1250 x 1700) by 0.57, and its 9-pixel labels and
 * figures then come out merged with the next line or not at all. On the seed-42 corpus 12 of
 * the 26 forged PDFs photographed raised nothing because their changed amount went unread;
 * at 1600, 8 of those 12 raise balance_mismatch and none of the 124 genuine photographed or
 * scanned statements and bills does. The cost is up to 2.8 times the detection pixels on
 * such pages; cards and pages under 1600 pixels are read as they are. (PaddleOCR 3 no longer
 * shrinks pages at all.)
 */
const DEFAULT_MAX_SIDE = 1600;
const DEFAULT_MIN_CONFIDENCE = 0.5;
const DEFAULT_MAX_PIXELS = 120_000_000;

export async function createOcrEngine(options: OcrEngineOptions): Promise<OcrEngine> {
  const executionProviders = options.executionProviders ?? chooseExecutionProviders(options.device);
  const session = sessionOptions(executionProviders, options);
  const [detModel, recModel, dictionary] = await Promise.all([
    loadModelBytes("ocr-detection"),
    loadModelBytes("ocr-recognition"),
    loadModelBytes("ocr-dictionary"),
  ]);
  const [detSession, recSession] = await Promise.all([loadModel(detModel, session), loadModel(recModel, session)]);
  const report = (model: ModelRun["model"]) => (items: number, ms: number) =>
    options.onModelRun?.({ model, items, ms });
  // On the CPU both models run one input per call: see the recogniser's reason below. A page
  // is worse batched than a crop: at up to 1600 pixels a side, eight pages of one size batched
  // are some 170 MB of input alone, and 8 pages at once went through at 0.48 pages/s batched
  // against 0.64 one by one (scripts/bench-sidecar.ts, 150 dpi statement, 2 cores).
  const cpuOnly = !executionProviders.includes("cuda");
  const detector = createDetector({
    session: detSession,
    maxSide: options.maxSide ?? DEFAULT_MAX_SIDE,
    ...options.batch,
    ...(cpuOnly ? { maxBatch: 1 } : {}),
    onRun: report("detection"),
  });
  const recognizer = createRecognizer({
    session: recSession,
    labels: ctcLabels(dictionary),
    ...options.batch,
    // On the CPU a line crop on its own is faster than in a batch: MLAS already spreads one
    // crop's convolutions over the cores, and a batch pads every crop to the widest and no
    // longer fits the cache (measured on 2 cores, 100 crops of the benchmark statement: 20 ms
    // per crop alone, 24 ms in batches of 4, 26 ms in batches of 16). GPUs want the batches.
    ...(cpuOnly ? { maxBatch: 1 } : {}),
    onRun: report("recognition"),
  });
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  let closed = false;

  const readImage = async (image: RgbImage): Promise<OcrLine[]> => {
    if (closed) throw new Error("OCR engine is closed");
    try {
      assertRgb(image);
    } catch (error) {
      throw new OcrInputError((error as Error).message);
    }
    if (image.width * image.height > maxPixels) {
      throw new OcrInputError(`image of ${image.width}x${image.height} pixels exceeds the ${maxPixels} pixel limit`);
    }
    const quads = await detector.detect(image);
    const decoded = await recognizer.recognize(quads.map((quad) => cropQuad(image, quad, REC_HEIGHT, MAX_REC_WIDTH)));
    const lines: OcrLine[] = [];
    quads.forEach((quad, i) => {
      const { text, confidence, characters } = decoded[i]!;
      if (text.trim() === "" || confidence < minConfidence) return;
      lines.push({ text, confidence, characters, polygon: quad.map(roundPoint), box: bounds(quad) });
    });
    return lines;
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await Promise.all([detector.close(), recognizer.close()]);
    await Promise.all([detSession.release(), recSession.release()]);
  };

  return { executionProviders, readImage, close };
}

const roundPoint = ([x, y]: Point): [number, number] => [Math.round(x * 10) / 10, Math.round(y * 10) / 10];

function bounds(quad: Quad): [number, number, number, number] {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const x = Math.floor(Math.min(...xs));
  const y = Math.floor(Math.min(...ys));
  return [x, y, Math.ceil(Math.max(...xs)) - x, Math.ceil(Math.max(...ys)) - y];
}
