// ONNX sessions that live on the model thread (model-worker.ts), so that a model's run never
// holds the sidecar's own thread. One thread per process serves every session: runs were
// already one at a time on the sidecar's thread, and each run spreads over the cores through
// ONNX Runtime's own pool. The thread starts with the first session loaded and ends when the
// last one is released. It keeps the process alive only while a request is in flight: a
// script's or a test's process ends when its work is done, whether or not it released the
// sessions it shared (the forensic graph's and the localiser's are kept for the process).
import type { InferenceSession } from "onnxruntime-node";
import type { ModelReply, ModelRequest, ModelTensors } from "./protocol.ts";

export type { ModelTensor, ModelTensors } from "./protocol.ts";

/** An ONNX Runtime session on the model thread. */
export interface ModelSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /**
   * Runs the model; the outputs are the caller's. The feeds are copied to the model thread, or
   * with `transfer` moved there (their buffers are then empty here): for tensors made for the
   * call, whose copy would cost the caller's thread some 40 ms for a page at the detector's size.
   */
  run(feeds: ModelTensors, options?: { transfer?: boolean }): Promise<ModelTensors>;
  /** Frees the session on the model thread; runs after it fail. */
  release(): Promise<void>;
}

// From source the worker lies beside this file; in the compiled binary it is an entry point of
// the build, addressed from the bundle's root (the repository root).
const WORKER_URL = Bun.isStandaloneExecutable
  ? "./sidecar/inference/model-worker.ts"
  : new URL("./model-worker.ts", import.meta.url).href;

/** Each request without its id, which the thread gives it. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type Request = WithoutId<ModelRequest>;
type Reply<T extends ModelReply["type"]> = Extract<ModelReply, { type: T }>;

class ModelThread {
  private readonly worker = new Worker(WORKER_URL);
  private readonly pending = new Map<number, { resolve(reply: ModelReply): void; reject(error: Error): void }>();
  /** Settled by the worker's "ready", or failed when the thread ends first. */
  private readonly ready = Promise.withResolvers<void>();
  private nextId = 0;
  private inFlight = 0;
  private ended: Error | null = null;
  /** Sessions loaded or loading, not yet released. */
  sessions = 0;

  constructor(private readonly onEnd: () => void) {
    // A thread that fails before anyone asks anything must not leave an unhandled rejection.
    this.ready.promise.catch(() => {});
    this.worker.onmessage = (event: MessageEvent<ModelReply>) => {
      const reply = event.data;
      if (reply.type === "ready") return this.ready.resolve();
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.type === "failed") pending?.reject(new Error(reply.message));
      else pending?.resolve(reply);
    };
    // Only what the worker's own handler did not catch lands here: its module failed to load,
    // or the thread broke. Nothing it held can be trusted any more.
    this.worker.onerror = (event) => this.end(new Error(`the model thread stopped: ${event.message}`));
    this.worker.unref();
  }

  async request<T extends ModelReply["type"]>(message: Request, transfer: ArrayBuffer[] = []): Promise<Reply<T>> {
    if (this.ended) throw this.ended;
    this.hold(1);
    try {
      await this.ready.promise;
      const id = ++this.nextId;
      const reply = new Promise<ModelReply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
      this.worker.postMessage({ ...message, id }, transfer);
      return (await reply) as Reply<T>;
    } finally {
      this.hold(-1);
    }
  }

  /** The thread keeps the process alive while requests are in flight, and only then. */
  private hold(change: 1 | -1): void {
    this.inFlight += change;
    if (this.ended) return;
    if (this.inFlight === 0) this.worker.unref();
    else this.worker.ref();
  }

  /** Fails what is pending and what comes after, and ends the thread. */
  end(error: Error): void {
    if (this.ended) return;
    this.ended = error;
    this.ready.reject(error);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.worker.terminate();
    this.onEnd();
  }
}

let thread: ModelThread | null = null;

function currentThread(): ModelThread {
  if (thread) return thread;
  const started: ModelThread = new ModelThread(() => {
    if (thread === started) thread = null;
  });
  thread = started;
  return started;
}

/** Loads a model onto the model thread, starting the thread if no session holds it. */
export async function loadModel(model: Uint8Array, options: InferenceSession.SessionOptions): Promise<ModelSession> {
  const owner = currentThread();
  owner.sessions++;
  let loaded: Reply<"loaded">;
  try {
    loaded = await owner.request<"loaded">({ type: "load", model, options });
  } catch (error) {
    letGo(owner);
    throw error;
  }
  const { session } = loaded;
  let released: Promise<void> | undefined;
  return {
    inputNames: loaded.inputNames,
    outputNames: loaded.outputNames,
    run: async (feeds, options) =>
      (await owner.request<"ran">({ type: "run", session, feeds }, options?.transfer ? wholeBuffers(feeds) : []))
        .outputs,
    // A session whose thread has ended is gone with it: nothing is left to release.
    release: () =>
      (released ??= owner.request<"released">({ type: "release", session }).then(
        () => letGo(owner),
        () => letGo(owner),
      )),
  };
}

/**
 * The feeds' buffers that can be moved: only a buffer a feed fills whole. A view of part of a
 * buffer is copied, since moving would take the rest of the buffer from whoever holds it.
 */
function wholeBuffers(feeds: ModelTensors): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const { data } of Object.values(feeds)) {
    if (data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength)
      buffers.add(data.buffer);
  }
  return [...buffers];
}

/** One session fewer on `owner`; the thread ends with its last. */
function letGo(owner: ModelThread): void {
  if (--owner.sessions === 0) owner.end(new Error("the model thread was closed"));
}
