// What analysing one document holds in the API process, estimated from its header before
// anything is decoded, for the process's memory budget (src/limits/memory-budget.ts). The
// structure and metadata detectors and the duplicate fingerprint decode an image whole (turned
// upright, flattened, to grey: a few copies of its pixels); a PDF is parsed and its first page
// drawn small inside a worker whose WebAssembly heap grows with the file.
import sharp from "sharp";
import type { IntakeDocument } from "../intake/document.ts";

/** Bytes per stored pixel: upright RGB, its flattened copy, grey and resized planes. */
const IMAGE_BYTES_PER_PIXEL = 12;
/** A PDF's parse and thumbnail, plus the worker's heap growing with the file's size. */
const PDF_BASE_BYTES = 64 * 1024 * 1024;
const PDF_BYTES_PER_FILE_BYTE = 8;

export async function estimateAnalysisBytes(document: IntakeDocument): Promise<number> {
  if (document.format === "pdf") return PDF_BASE_BYTES + document.bytes.byteLength * PDF_BYTES_PER_FILE_BYTE;
  // Intake has read the header already; a document made elsewhere (a test's) is read here.
  const pixels = document.pixels ?? (await headerPixels(document.bytes));
  return pixels * IMAGE_BYTES_PER_PIXEL + document.bytes.byteLength;
}

async function headerPixels(bytes: Uint8Array): Promise<number> {
  const { width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata();
  return width * height;
}

/** Resident size of the API process with nothing in flight (measured ~130-230 MB). */
export const API_IDLE_BYTES = 256 * 1024 * 1024;

/** The WebAssembly memory mupdf itself never grows past. */
const MUPDF_MAX_HEAP_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * What mupdf may grow to in each analysis worker: the workers' heaps together stay within
 * what DOCVERIFY_MEMORY_LIMIT leaves the documents in flight, even were every worker to grow
 * to its cap at once (their heaps only grow, and are given back when a worker is replaced).
 */
export function analysisWorkerHeapBytes(memoryLimitBytes: number, workers: number): number {
  return Math.min(MUPDF_MAX_HEAP_BYTES, Math.floor(Math.max(0, memoryLimitBytes - API_IDLE_BYTES) / workers));
}
