// Dynamic batching across concurrent requests: items wait in a queue per key (items of one
// key can share a tensor, e.g. the same input shape) until `maxBatch` of them are there or
// the oldest has waited `maxWaitMs`; then one `run` call serves them all and its results are
// handed back to each caller. At most `maxConcurrentRuns` runs are in flight per batcher, so
// work arriving during a run gathers into the next batch instead of competing for cores.

export interface BatcherOptions<I, O> {
  maxBatch: number;
  maxWaitMs: number;
  /** Must return one result per item, in order. */
  run(items: I[], key: string): Promise<O[]>;
  keyOf?(item: I): string;
  maxConcurrentRuns?: number;
}

export interface Batcher<I, O> {
  submit(item: I): Promise<O>;
  /** Refuses new items, runs what is queued, and resolves when every run has finished. */
  close(): Promise<void>;
}

export class BatcherClosedError extends Error {
  constructor() {
    super("batcher is closed");
    this.name = "BatcherClosedError";
  }
}

interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

interface Queue<I, O> {
  key: string;
  pending: Pending<I, O>[];
  due: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

export function createBatcher<I, O>(options: BatcherOptions<I, O>): Batcher<I, O> {
  const { maxBatch, maxWaitMs, run } = options;
  const keyOf = options.keyOf ?? (() => "");
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 1;
  if (!(maxBatch >= 1) || !(maxWaitMs >= 0) || !(maxConcurrentRuns >= 1)) {
    throw new RangeError("batcher needs maxBatch >= 1, maxWaitMs >= 0 and maxConcurrentRuns >= 1");
  }

  // Map keeps insertion order, so the queue that started waiting first is served first.
  const queues = new Map<string, Queue<I, O>>();
  let inFlight = 0;
  let closed = false;
  let idle: (() => void) | null = null;

  const dispatch = (): void => {
    while (inFlight < maxConcurrentRuns) {
      const queue = [...queues.values()].find((q) => q.due || q.pending.length >= maxBatch);
      if (!queue) break;
      const batch = queue.pending.splice(0, maxBatch);
      if (queue.pending.length === 0) {
        if (queue.timer) clearTimeout(queue.timer);
        queues.delete(queue.key);
      }
      inFlight++;
      void execute(batch, queue.key);
    }
    if (inFlight === 0 && queues.size === 0) idle?.();
  };

  const execute = async (batch: Pending<I, O>[], key: string): Promise<void> => {
    try {
      const results = await run(
        batch.map((p) => p.item),
        key,
      );
      if (results.length !== batch.length)
        throw new Error(`batch run returned ${results.length} results for ${batch.length} items`);
      batch.forEach((p, i) => {
        p.resolve(results[i]!);
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      inFlight--;
      dispatch();
    }
  };

  const submit = (item: I): Promise<O> => {
    if (closed) return Promise.reject(new BatcherClosedError());
    const key = keyOf(item);
    return new Promise<O>((resolve, reject) => {
      let queue = queues.get(key);
      if (!queue) {
        const created: Queue<I, O> = { key, pending: [], due: false, timer: null };
        created.timer = setTimeout(() => {
          created.due = true;
          created.timer = null;
          dispatch();
        }, maxWaitMs);
        queues.set(key, created);
        queue = created;
      }
      queue.pending.push({ item, resolve, reject });
      if (queue.pending.length >= maxBatch) dispatch();
    });
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      closed = true;
      for (const queue of queues.values()) {
        queue.due = true;
        if (queue.timer) clearTimeout(queue.timer);
        queue.timer = null;
      }
      idle = resolve;
      dispatch();
    });
    return closing;
  };

  return { submit, close };
}
