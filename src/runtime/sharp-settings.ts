// sharp (libvips) set for a long-running service rather than a script: libvips' operation
// cache would keep recent images and their decoded buffers alive (up to 50 MB and 100
// operations by default) after their documents are answered, and its default of one worker
// thread per core for every pipeline multiplies buffers by the number of documents in flight.
// The settings are process-wide: once per process is enough, worker threads included.
import { availableParallelism } from "node:os";
import sharp from "sharp";

/** libvips threads per image pipeline: documents in flight are the parallelism of a service. */
const SHARP_THREADS = Math.min(2, availableParallelism());

export function configureSharpForService(): void {
  sharp.cache(false);
  sharp.concurrency(SHARP_THREADS);
}
