// Memory that the documents in flight in one process may hold together, so that the process
// stays under DOCVERIFY_MEMORY_LIMIT however many arrive at once. A document reserves what
// it is estimated to hold before it decodes anything and waits, first come first served,
// while the documents ahead of it hold the memory; one that could never fit is refused.
//
// A request may hold memory for longer than one reservation: its body is held from before
// it is read until the answer is sent, and the document's analysis reserves more beside it.
// Such a hold is set aside while the same request waits for more (and taken again with the
// rest), so that no two waiters each hold what the other waits for: requests whose bodies
// are held while they wait can never block one another for good.

/**
 * Memory held until `release`, which a later reservation for the same work may set aside while it
 * waits.
 */
export interface MemoryHold {
  readonly bytes: number;
  /** Gives the bytes back; idempotent. */
  release(): void;
}

export interface MemoryBudget {
  /** Bytes the documents in flight may hold together. */
  readonly totalBytes: number;
  /** Bytes held now. */
  used(): number;
  /**
   * Waits until `bytes` fit beside what is held; refuses (with `refuse`'s error) what never
   * can. `beside`, a hold of this budget for the same work, counts toward what must fit and
   * is set aside while this waits; the release returned gives back `bytes` only.
   */
  reserve(bytes: number, what: string, signal?: AbortSignal, beside?: MemoryHold): Promise<() => void>;
  /** Like `reserve`, as a hold that a later `reserve` may set aside while it waits. */
  hold(bytes: number, what: string, signal?: AbortSignal): Promise<MemoryHold>;
}

export interface MemoryBudgetOptions {
  /** DOCVERIFY_MEMORY_LIMIT. */
  limitBytes: number;
  /** What the process holds with nothing in flight. */
  idleBytes: number;
  /** The error for a document that can never fit. */
  refuse(message: string): Error;
  /** The error for a wait that was abandoned; `reason` is the aborted signal's. */
  cancelled(reason?: unknown): Error;
}

const mib = (bytes: number): number => Math.round(bytes / 1_048_576);

type HoldState = "held" | "set-aside" | "released";

export function createMemoryBudget(options: MemoryBudgetOptions): MemoryBudget {
  const totalBytes = Math.max(0, options.limitBytes - options.idleBytes);
  let used = 0;
  const waiting: { bytes: number; start(): void }[] = [];
  // The holds this budget made, and whether their bytes are counted in `used` now.
  const holds = new WeakMap<MemoryHold, { state: HoldState }>();

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

  const reserve = (bytes: number, what: string, signal?: AbortSignal, beside?: MemoryHold) => {
    const besideState = beside ? holds.get(beside) : undefined;
    const alongside = besideState?.state === "held" ? beside!.bytes : 0;
    if (bytes + alongside > totalBytes) {
      return Promise.reject(
        options.refuse(
          `${what} needs about ${mib(bytes + alongside)} MiB of memory to analyse, more than the ${mib(options.limitBytes)} MiB memory limit (DOCVERIFY_MEMORY_LIMIT) leaves for one document`,
        ),
      );
    }
    if (waiting.length === 0 && used + bytes <= totalBytes) {
      used += bytes;
      return Promise.resolve(held(bytes));
    }
    return new Promise<() => void>((resolve, reject) => {
      const entry = {
        bytes: bytes + alongside,
        start: () => {
          if (besideState?.state === "set-aside") besideState.state = "held";
          else if (alongside > 0) {
            // Released while this waited: its bytes were taken with ours and go back now.
            used -= alongside;
            queueMicrotask(drain);
          }
          resolve(held(bytes));
        },
      };
      if (besideState && alongside > 0) {
        besideState.state = "set-aside";
        used -= alongside;
      }
      waiting.push(entry);
      signal?.addEventListener(
        "abort",
        () => {
          const at = waiting.indexOf(entry);
          if (at < 0) return;
          waiting.splice(at, 1);
          // What the work still holds is counted again, even past the total for a moment:
          // it is in memory, and it is given back when that work ends.
          if (besideState?.state === "set-aside") {
            besideState.state = "held";
            used += alongside;
          }
          reject(options.cancelled(signal.reason));
          drain();
        },
        { once: true },
      );
      drain();
    });
  };

  return {
    totalBytes,
    used: () => used,
    reserve,
    async hold(bytes, what, signal) {
      const release = await reserve(bytes, what, signal);
      const state = { state: "held" as HoldState };
      const hold: MemoryHold = {
        bytes,
        release() {
          if (state.state === "released") return;
          const wasHeld = state.state === "held";
          state.state = "released";
          // A hold set aside is not counted in `used`; the waiter that set it aside gives back its
          // share.
          if (wasHeld) release();
        },
      };
      holds.set(hold, state);
      return hold;
    },
  };
}
