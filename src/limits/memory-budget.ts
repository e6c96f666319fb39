// Memory that the documents in flight in one process may hold together, so that the process
// stays under DOCVERIFY_MEMORY_LIMIT however many arrive at once. A document reserves what
// it is estimated to hold before it decodes anything and waits, first come first served,
// while the documents ahead of it hold the memory; one that could never fit is refused.

export interface MemoryBudget {
  /** Bytes the documents in flight may hold together. */
  readonly totalBytes: number;
  /** Bytes held now. */
  used(): number;
  /** Waits until `bytes` fit beside what is held; refuses (with `refuse`'s error) what never can. */
  reserve(bytes: number, what: string, signal?: AbortSignal): Promise<() => void>;
}

export interface MemoryBudgetOptions {
  /** DOCVERIFY_MEMORY_LIMIT. */
  limitBytes: number;
  /** What the process holds with nothing in flight. */
  idleBytes: number;
  /** The error for a document that can never fit. */
  refuse(message: string): Error;
  /** The error for a wait that was abandoned. */
  cancelled(): Error;
}

const mib = (bytes: number): number => Math.round(bytes / 1_048_576);

export function createMemoryBudget(options: MemoryBudgetOptions): MemoryBudget {
  const totalBytes = Math.max(0, options.limitBytes - options.idleBytes);
  let used = 0;
  const waiting: { bytes: number; start(): void }[] = [];

  const drain = () => {
    while (waiting.length > 0 && used + waiting[0]!.bytes <= totalBytes) {
      const next = waiting.shift()!;
      used += next.bytes;
      next.start();
    }
  };

  const held = (bytes: number) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      used -= bytes;
      drain();
    };
  };

  return {
    totalBytes,
    used: () => used,
    reserve(bytes, what, signal) {
      if (bytes > totalBytes) {
        return Promise.reject(
          options.refuse(
            `${what} needs about ${mib(bytes)} MiB of memory to analyse, more than the ${mib(options.limitBytes)} MiB memory limit (DOCVERIFY_MEMORY_LIMIT) leaves for one document`,
          ),
        );
      }
      if (waiting.length === 0 && used + bytes <= totalBytes) {
        used += bytes;
        return Promise.resolve(held(bytes));
      }
      return new Promise((resolve, reject) => {
        const entry = { bytes, start: () => resolve(held(bytes)) };
        waiting.push(entry);
        signal?.addEventListener(
          "abort",
          () => {
            const at = waiting.indexOf(entry);
            if (at < 0) return;
            waiting.splice(at, 1);
            reject(options.cancelled());
            drain();
          },
          { once: true },
        );
      });
    },
  };
}
