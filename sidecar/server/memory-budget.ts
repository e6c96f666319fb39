// How the sidecar divides DOCVERIFY_MEMORY_LIMIT (src/limits/memory-budget.ts), so that it stays
// under it however many documents arrive at once. Out of the limit come, before any page is
// sized: the models and runtime at work (BASE_BYTES), the PDF render workers' mupdf memory (each
// worker's WebAssembly memory is capped, and counted at its cap: it only grows, and is given back
// only when the worker ends), and a margin for what a page leaves behind until it is collected.
// What remains is the pages' budget. A page costs about BYTES_PER_PIXEL for each pixel it is
// analysed at (decoded RGB, the OCR and forensic models' tensors and activations); pages reserve
// their cost before they are decoded and wait, first come first served, for room; a page is
// analysed at a scale whose cost fits the whole pages' budget.
import { status } from "@grpc/grpc-js";
import { createMemoryBudget, type MemoryBudget } from "../../src/limits/memory-budget.ts";
import { giveBackMemory } from "../../src/runtime/give-back-memory.ts";
import { DocumentRefused, overLimit } from "./errors.ts";

export type { MemoryBudget } from "../../src/limits/memory-budget.ts";

/**
 * Peak resident size, measured with ONNX Runtime's CPU arena off, is close to a line in the
 * pixels of the page analysed: about 344 MiB plus 75 bytes a pixel (559 MiB at 3.0 MP,
 * 1,270 MiB at 12.9 MP, 1,226-1,341 MiB at 13 MP). The base is the models' sessions at work
 * and the decoder's buffers, held once however many pages are in flight; both are rounded up.
 */
export const BYTES_PER_PIXEL = 85;
const BASE_BYTES = 384 * 1024 * 1024;

/**
 * What is kept for garbage, as a share of what the base leaves: a page's buffers (JavaScript
 * ArrayBuffers, native tensors) are freed only once collected, and the next page may start
 * before that. Measured at the default limit with pages sized to the whole of what the base left,
 * three 12.9 MP PDF pages peaked 295 MiB above one page, and four 13-45 MP images one after
 * another 200 MiB above it. A page larger than this margin is collected (and the heaps trimmed)
 * before its bytes go to the next, so the margin only has to hold smaller pages' leftovers.
 */
const GARBAGE_SHARE = 0.1;

/**
 * Each render worker's mupdf memory, as a share of what the base leaves, within bounds: mupdf
 * starts at 22 MiB; at the default limit (105 MiB each) it renders pages of text at the largest
 * size the pages' budget allows. A PDF that needs more (large embedded images decoded whole) is
 * refused as over the limit rather than passing it.
 */
const RENDER_HEAP_SHARE = 0.1;
const MIN_RENDER_HEAP_BYTES = 48 * 1024 * 1024;
/** The WebAssembly memory mupdf itself never grows past. */
const MUPDF_MAX_HEAP_BYTES = 2 * 1024 * 1024 * 1024;
/** The render workers together take at most this share of what the base leaves (at least one worker). */
const RENDER_WORKERS_SHARE = 0.25;

/** DOCVERIFY_MEMORY_LIMIT's default. */
export const DEFAULT_MEMORY_LIMIT_BYTES = 1_500_000_000;

export interface SidecarMemory {
  /** What the pages in flight may hold together. */
  pages: MemoryBudget;
  /** The most pixels a page may be analysed at: its cost fits the whole pages' budget. */
  maxPagePixels: number;
  /** PDF render workers: as many as asked for while their heaps take at most a quarter of what the base leaves, and at least one. */
  renderWorkers: number;
  /** What mupdf may grow to in each render worker. */
  renderWorkerHeapBytes: number;
}

export function planSidecarMemory(limitBytes: number, renderWorkers: number): SidecarMemory {
  const left = Math.max(0, limitBytes - BASE_BYTES);
  const garbageBytes = Math.floor(left * GARBAGE_SHARE);
  const renderWorkerHeapBytes = Math.floor(
    Math.min(MUPDF_MAX_HEAP_BYTES, Math.max(MIN_RENDER_HEAP_BYTES, left * RENDER_HEAP_SHARE)),
  );
  const workers = Math.max(
    1,
    Math.min(renderWorkers, Math.floor((left * RENDER_WORKERS_SHARE) / renderWorkerHeapBytes)),
  );
  const pages = createMemoryBudget({
    limitBytes,
    idleBytes: BASE_BYTES + garbageBytes + workers * renderWorkerHeapBytes,
    refuse: (message) => overLimit(message),
    cancelled: () => new DocumentRefused(status.CANCELLED, "the request was cancelled while waiting for memory"),
  });
  return {
    pages: collectedBeforeReuse(pages, garbageBytes),
    maxPagePixels: Math.floor(pages.totalBytes / BYTES_PER_PIXEL),
    renderWorkers: workers,
    renderWorkerHeapBytes,
  };
}

/**
 * The budget, with reservations larger than `garbageBytes` handed back only once the garbage they
 * left is collected and the heaps trimmed: without that, the next large page started beside the
 * last one's buffers and the sidecar passed the limit. A full collection stops the thread for a
 * moment; a page this large takes seconds to analyse.
 */
function collectedBeforeReuse(budget: MemoryBudget, garbageBytes: number): MemoryBudget {
  const collected = (bytes: number, release: () => void): (() => void) => {
    if (bytes <= garbageBytes) return release;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      giveBackMemory().then(release, release);
    };
  };
  return {
    get totalBytes() {
      return budget.totalBytes;
    },
    used: () => budget.used(),
    reserve: async (bytes, what, signal, beside) => collected(bytes, await budget.reserve(bytes, what, signal, beside)),
    hold: (bytes, what, signal) => budget.hold(bytes, what, signal),
  };
}
