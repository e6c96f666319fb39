// What the sidecar's pages in flight may hold (src/limits/memory-budget.ts), so that it stays
// under DOCVERIFY_MEMORY_LIMIT however many documents arrive at once. A page costs about
// BYTES_PER_PIXEL for each pixel it is analysed at (decoded RGB, the OCR and forensic models'
// tensors and activations); pages reserve their cost before they are decoded, and a page is
// analysed at a scale whose cost fits the whole budget.
import { status } from "@grpc/grpc-js";
import { createMemoryBudget, type MemoryBudget } from "../../src/limits/memory-budget.ts";
import { DocumentRefused, overLimit } from "./errors.ts";

export type { MemoryBudget } from "../../src/limits/memory-budget.ts";

/**
 * Peak resident size, measured with ONNX Runtime's CPU arena off, is close to a line in the
 * pixels of the page analysed: about 344 MiB plus 75 bytes a pixel (559 MiB at 3.0 MP,
 * 1,270 MiB at 12.9 MP, 1,226-1,341 MiB at 13 MP). The base is the models' sessions at work
 * and the decoder's buffers, held once however many pages are in flight; both are rounded up.
 */
export const BYTES_PER_PIXEL = 85;
const IDLE_BYTES = 384 * 1024 * 1024;

/** DOCVERIFY_MEMORY_LIMIT's default. */
export const DEFAULT_MEMORY_LIMIT_BYTES = 1_500_000_000;

export const createPageMemoryBudget = (limitBytes: number): MemoryBudget & { maxPagePixels: number } => {
  const budget = createMemoryBudget({
    limitBytes,
    idleBytes: IDLE_BYTES,
    refuse: (message) => overLimit(message),
    cancelled: () => new DocumentRefused(status.CANCELLED, "the request was cancelled while waiting for memory"),
  });
  return Object.assign(budget, { maxPagePixels: Math.floor(budget.totalBytes / BYTES_PER_PIXEL) });
};

/** The WebAssembly memory mupdf itself never grows past. */
const MUPDF_MAX_HEAP_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * What mupdf may grow to in each PDF render worker: the workers' heaps together stay within the
 * pages' budget even were every worker to grow to its cap at once (they only grow, and are
 * given back when a worker is replaced).
 */
export const renderWorkerHeapBytes = (budget: MemoryBudget, workers: number): number =>
  Math.min(MUPDF_MAX_HEAP_BYTES, Math.floor(budget.totalBytes / workers));
