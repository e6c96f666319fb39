// A small pool of workers running the structure and metadata inspection (inspectDocument). One
// document per worker at a time; a worker that overruns the time limit is terminated and replaced,
// so a hostile file costs bounded time and never wedges the pool. A worker is also replaced after
// a number of documents: mupdf's WebAssembly memory grows to the largest document it opened
// and never shrinks, and ending the worker is what gives it back. That memory is capped in
// each worker (mupdfHeapBytes; Bun has no heap limit for workers): a document that would pass
// the cap is refused with FILE_TOO_LARGE and its worker replaced.
//
// Workers start with the first document that needs one, and a worker left without a document
// for a while is ended: an idle worker holds about 40 MB of the process (its own JavaScript
// heap, mupdf's compiled code and its 22 MiB initial WebAssembly memory, more after a large
// PDF), and starting one costs about 170 ms of one core. So after a burst the process settles
// back to its size before the first document, not to that size plus a worker per slot.
import { AppError } from "../../errors.ts";
import type { IntakeDocument } from "../../intake/document.ts";
import type { LocalInspection } from "../analyze.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";
import { createIdleShelf } from "../../runtime/idle-shelf.ts";
import { mupdfHeapArgv } from "../../runtime/mupdf-memory-cap.ts";

// From source the worker lies beside this file; in the compiled binary it is an entry point
// of the build, addressed from the bundle's root (the repository root).
const WORKER_URL = Bun.isStandaloneExecutable
  ? "./src/analysis/worker/local-analysis-worker.ts"
  : new URL("./local-analysis-worker.ts", import.meta.url).href;

export interface LocalAnalysisPool {
  inspect(document: IntakeDocument): Promise<LocalInspection>;
  /**
   * Intake's proof that a PDF opens (validate-pdf.ts), run here so mupdf never loads on the API's
   * thread.
   */
  validatePdf(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Documents this worker inspected. */
  served: number;
}

/** Documents a worker inspects before it is replaced (see above). */
const DOCUMENTS_PER_WORKER = 32;

/**
 * How long a worker may wait for a document before it is ended: long enough that a steady
 * stream of documents, or a client's next request after reading an answer, finds a worker
 * ready; short enough that a process left alone settles within seconds.
 */
const IDLE_WORKER_MS = 2_000;

function spawn(mupdfHeapBytes: number | undefined): Slot {
  const worker = new Worker(WORKER_URL, { argv: mupdfHeapArgv(mupdfHeapBytes) });
  const ready = new Promise<void>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerReply>) => (event.data.type === "ready" ? resolve() : undefined);
    worker.onerror = (event) => reject(new Error(`the analysis worker failed to start: ${event.message}`));
  });
  return { worker, ready, served: 0 };
}

export function createLocalAnalysisPool(options: {
  workers: number;
  timeLimitMs: number;
  documentsPerWorker?: number;
  /** The most WebAssembly memory mupdf may grow to in each worker; default mupdf's own 2 GiB. */
  mupdfHeapBytes?: number;
  /** How long a worker may wait for a document before it is ended; default IDLE_WORKER_MS. */
  idleWorkerMs?: number;
  /** Called once an idle worker has been ended and its thread is gone: its memory is free to give back. */
  onIdleWorkerEnded?: () => void;
}): LocalAnalysisPool {
  const documentsPerWorker = options.documentsPerWorker ?? DOCUMENTS_PER_WORKER;
  let created = 0;
  const idle = createIdleShelf<Slot>(options.idleWorkerMs ?? IDLE_WORKER_MS, (slot) => {
    created--;
    if (options.onIdleWorkerEnded) slot.worker.addEventListener("close", options.onIdleWorkerEnded, { once: true });
    slot.worker.terminate();
  });
  const waiting: ((slot: Slot) => void)[] = [];
  let nextId = 0;
  let closed = false;

  const acquire = (): Promise<Slot> => {
    const slot = idle.take();
    if (slot) return Promise.resolve(slot);
    if (created < options.workers) {
      created++;
      return Promise.resolve(spawn(options.mupdfHeapBytes));
    }
    return new Promise((resolve) => waiting.push(resolve));
  };

  const release = (slot: Slot, healthy: boolean) => {
    if (!healthy) {
      slot.worker.terminate();
      if (closed) return;
      slot = spawn(options.mupdfHeapBytes);
    }
    if (closed) return void slot.worker.terminate();
    const next = waiting.shift();
    if (next) next(slot);
    else idle.put(slot);
  };

  const run = <T>(slot: Slot, task: WorkerRequest["task"], document: IntakeDocument): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        release(slot, false);
        reject(new AppError("UNSUPPORTED_FORMAT", "The document could not be analysed within the time limit"));
      }, options.timeLimitMs);
      slot.worker.onerror = () => {
        clearTimeout(timer);
        release(slot, false);
        reject(new AppError("INTERNAL_ERROR", "The analysis worker stopped unexpectedly"));
      };
      slot.worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        if (reply.type === "ready" || reply.id !== id) return;
        clearTimeout(timer);
        release(slot, ++slot.served < documentsPerWorker && !(reply.type === "failed" && reply.retire));
        if (reply.type === "done") resolve(reply.inspection as T);
        else if (reply.type === "valid") resolve(undefined as T);
        else
          reject(
            reply.error
              ? new AppError(reply.error.code, reply.error.message)
              : new AppError("INTERNAL_ERROR", "The analysis failed"),
          );
      };
      slot.worker.postMessage({ id, task, document } satisfies WorkerRequest);
    });

  const submit = async <T>(task: WorkerRequest["task"], document: IntakeDocument): Promise<T> => {
    if (closed)
      throw new AppError("SERVICE_UNAVAILABLE", "The analyser is shutting down", { retryable: true, retryAfterSec: 5 });
    const slot = await acquire();
    try {
      await slot.ready;
    } catch (error) {
      release(slot, false);
      throw error;
    }
    return run<T>(slot, task, document);
  };

  return {
    inspect: (document) => submit<LocalInspection>("inspect", document),
    validatePdf: (bytes) => submit<void>("validate", { bytes, format: "pdf" }),
    async close() {
      closed = true;
      for (const slot of idle.drain()) slot.worker.terminate();
    },
  };
}
