// PDF pages to RGB through a small pool of render workers (render-worker.ts). One document
// holds one worker; pages are rendered one at a time on request, so a document in flight holds
// at most one page of pixels. A worker that overruns the document's time budget is terminated.
// Workers start with the first PDF that needs one, and one left without a document for
// IDLE_RENDER_WORKER_MS is ended: mupdf's WebAssembly memory stays at the largest page it drew
// (measured, a sidecar sat 36% above its idle size after a PDF of large pages while its
// worker was kept), and only ending the worker gives it back.
import type { RgbImage } from "../image/rgb.ts";
import { status } from "@grpc/grpc-js";
import { DocumentRefused, invalidDocument, overLimit } from "./errors.ts";
import type { DocumentLimits } from "./limits.ts";
import type { RenderReply, RenderRequest } from "./render-protocol.ts";
import { createIdleShelf } from "../../src/runtime/idle-shelf.ts";
import { mupdfHeapArgv } from "../../src/runtime/mupdf-memory-cap.ts";

interface RenderedPage {
  index: number;
  image: RgbImage;
  widthPt: number;
  heightPt: number;
  /** Pixels per point. */
  scale: number;
}

export interface PdfRenderer {
  /**
   * Renders up to limits.maxPages pages, handing each to `onPage` before rendering the next.
   * Resolves with the document's page count.
   */
  render(bytes: Uint8Array, signal: AbortSignal, onPage: (page: RenderedPage) => Promise<void>): Promise<number>;
  close(): Promise<void>;
}

// From source the worker lies beside this file. In the compiled binary it is a second entry
// point of the build, addressed from the bundle's root (the repository root of the build).
const WORKER_URL = Bun.isStandaloneExecutable
  ? "./sidecar/server/render-worker.ts"
  : new URL("./render-worker.ts", import.meta.url).href;

/**
 * Documents a render worker opens before it is replaced: mupdf's WebAssembly memory grows to
 * the largest document it rendered and never shrinks; ending the worker gives it back.
 */
const DOCUMENTS_PER_RENDER_WORKER = 32;

/** How long a render worker may wait for a document before it is ended (starting one costs about 110 ms of one core). */
const IDLE_RENDER_WORKER_MS = 2_000;

class RenderWorker {
  private readonly worker: Worker;
  /** Documents opened in this worker. */
  documents = 0;
  /** mupdf's memory in this worker after its last document, when the worker says (its heap is capped). */
  heapBytes = 0;
  private pending: { resolve(reply: RenderReply): void; reject(error: Error): void } | null = null;
  private dead = false;
  readonly started: Promise<RenderReply>;

  /**
   * `mupdfHeapBytes`: the most WebAssembly memory mupdf may grow to in this worker (none: its own 2
   * GiB).
   */
  constructor(mupdfHeapBytes: number | undefined) {
    this.worker = new Worker(WORKER_URL, { argv: mupdfHeapArgv(mupdfHeapBytes) });
    this.worker.onmessage = (event: MessageEvent<RenderReply>) => this.settle((p) => p.resolve(event.data));
    this.worker.onerror = () => this.fail(invalidDocument("the PDF could not be rendered"));
    this.started = this.expect();
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Sends one request and waits for its reply, at most `timeoutMs` (then the worker is ended). */
  request(message: RenderRequest, timeoutMs: number, signal: AbortSignal): Promise<RenderReply> {
    const reply = this.expect();
    this.worker.postMessage(message);
    return this.bounded(reply, timeoutMs, signal);
  }

  /** Ends the worker; `onClosed` runs once its thread is gone. */
  terminate(onClosed?: () => void): void {
    this.dead = true;
    if (onClosed) this.worker.addEventListener("close", onClosed, { once: true });
    this.worker.terminate();
  }

  private expect(): Promise<RenderReply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
    });
  }

  private bounded(reply: Promise<RenderReply>, timeoutMs: number, signal: AbortSignal): Promise<RenderReply> {
    const timer = setTimeout(
      () => this.fail(overLimit(`rendering the PDF ran past its time budget`)),
      Math.max(0, timeoutMs),
    );
    const abort = () => this.fail(new DocumentRefused(status.CANCELLED, "the request was cancelled"));
    signal.addEventListener("abort", abort, { once: true });
    return reply.finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    });
  }

  private settle(action: (p: NonNullable<RenderWorker["pending"]>) => void): void {
    const pending = this.pending;
    this.pending = null;
    if (pending) action(pending);
  }

  private fail(error: Error): void {
    this.terminate();
    this.settle((p) => p.reject(error));
  }
}

export function createPdfRenderer(options: {
  workers: number;
  limits: DocumentLimits;
  /**
   * The most WebAssembly memory mupdf may grow to in each render worker; default mupdf's own 2 GiB.
   */
  mupdfHeapBytes?: number;
  /** How long a worker may wait for a document before it is ended; default IDLE_RENDER_WORKER_MS. */
  idleWorkerMs?: number;
  /** Called once an idle worker has been ended and its thread is gone: its memory is free to give back. */
  onIdleWorkerEnded?: () => void;
}): PdfRenderer {
  const { limits } = options;
  let created = 0;
  const idle = createIdleShelf<RenderWorker>(options.idleWorkerMs ?? IDLE_RENDER_WORKER_MS, (worker) => {
    created--;
    worker.terminate(options.onIdleWorkerEnded);
  });
  const waiting: ((worker: RenderWorker) => void)[] = [];
  let closed = false;

  const spawn = async (): Promise<RenderWorker> => {
    const worker = new RenderWorker(options.mupdfHeapBytes);
    const first = await worker.started;
    if (first.type !== "ready") throw new Error("the render worker did not start");
    return worker;
  };

  const acquire = async (): Promise<RenderWorker> => {
    const worker = idle.take();
    if (worker) return worker;
    if (created < options.workers) {
      created++;
      try {
        return await spawn();
      } catch (error) {
        created--;
        throw error;
      }
    }
    return new Promise((resolve) => waiting.push(resolve));
  };

  const release = (worker: RenderWorker): void => {
    if (!worker.alive || closed || worker.documents >= DOCUMENTS_PER_RENDER_WORKER || grown(worker)) {
      if (worker.alive) worker.terminate();
      created--;
      // A replaced worker frees a slot: the next waiter gets a fresh one.
      const next = waiting.shift();
      if (next && !closed) {
        created++;
        spawn().then(next, () => created--);
      }
      return;
    }
    const next = waiting.shift();
    if (next) next(worker);
    else idle.put(worker);
  };

  /**
   * A worker whose mupdf grew past half its cap is replaced: the next document would get less than
   * half the cap in a heap left fragmented (measured, an 8.7 MP scan that a fresh worker renders
   * within 105 MiB was refused by one that had rendered two 35 MP scans), and ending it gives the
   * memory back.
   */
  const grown = (worker: RenderWorker): boolean =>
    options.mupdfHeapBytes !== undefined && worker.heapBytes > options.mupdfHeapBytes / 2;

  const render: PdfRenderer["render"] = async (bytes, signal, onPage) => {
    if (closed) throw new Error("the renderer is closed");
    const worker = await acquire();
    worker.documents++;
    // The budget counts time in the worker only, not the OCR of pages between renders.
    let budget = limits.renderBudgetMs;
    const timed = async (message: RenderRequest): Promise<RenderReply> => {
      const started = performance.now();
      try {
        return await worker.request(message, budget, signal);
      } finally {
        budget -= performance.now() - started;
      }
    };
    const settings = {
      maxPages: limits.maxPages,
      pdfDpi: limits.pdfDpi,
      maxPagePixels: limits.maxPagePixels,
      maxPageSide: limits.maxPageSide,
    };
    try {
      // The bytes are copied into the worker, not transferred: the caller still owns them.
      const opened = await timed({ type: "open", bytes, settings });
      if (opened.type === "refused") throw refusal(worker, opened);
      if (opened.type !== "opened") throw new Error(`render worker answered ${opened.type} to open`);
      const pageCount = opened.pageCount;
      for (let index = 0; index < Math.min(pageCount, limits.maxPages); index++) {
        const page = await timed({ type: "render", index });
        if (page.type === "refused") throw refusal(worker, page);
        if (page.type !== "page") throw new Error(`render worker answered ${page.type} to render`);
        await onPage({
          index,
          image: { data: page.rgb, width: page.width, height: page.height },
          widthPt: page.widthPt,
          heightPt: page.heightPt,
          scale: page.scale,
        });
      }
      return pageCount;
    } finally {
      if (worker.alive) {
        const closedReply = await worker
          .request({ type: "close" }, 5_000, new AbortController().signal)
          .catch(() => undefined);
        if (closedReply?.type === "closed") worker.heapBytes = closedReply.heapBytes ?? 0;
      }
      release(worker);
    }
  };

  const close = async (): Promise<void> => {
    closed = true;
    for (const worker of idle.drain()) worker.terminate();
  };

  return { render, close };
}

/**
 * A worker whose mupdf ran out of its capped heap is replaced (its heap may be left damaged): the
 * document is over a limit.
 */
function refusal(worker: RenderWorker, reply: Extract<RenderReply, { type: "refused" }>): Error {
  if (!reply.overMemory) return invalidDocument(reply.message);
  worker.terminate();
  return overLimit(reply.message);
}
