// Where a worker pool keeps its workers between documents: each put back waits at most
// `idleMs` for its next document, then is handed to `expire` (which ends it). Both worker pools
// use it (src/analysis/worker/local-analysis-pool.ts, sidecar/server/render-pdf.ts): an idle
// worker holds its heap and mupdf's WebAssembly memory, and only ending it gives them back.

export interface IdleShelf<T> {
  /** Puts a worker back; `expire` gets it if no one takes it within `idleMs`. */
  put(item: T): void;
  /** The most recently put back (under a light load the others stay idle and expire), or none. */
  take(): T | undefined;
  /** Empties the shelf without expiring anything: the pool is closing. */
  drain(): T[];
}

export function createIdleShelf<T>(idleMs: number, expire: (item: T) => void): IdleShelf<T> {
  const waiting: { item: T; timer: ReturnType<typeof setTimeout> }[] = [];
  const stop = ({ item, timer }: (typeof waiting)[number]) => {
    clearTimeout(timer);
    return item;
  };
  return {
    put(item) {
      const entry = {
        item,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          expire(item);
        }, idleMs),
      };
      entry.timer.unref?.();
      waiting.push(entry);
    },
    take() {
      const entry = waiting.pop();
      return entry && stop(entry);
    },
    drain: () => waiting.splice(0).map(stop),
  };
}
