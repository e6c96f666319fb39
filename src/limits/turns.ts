// Turns at something that can only do a few things at once: `concurrent` run, `queued` wait
// first come first served, and past both the caller's `full()` error answers at once, so a
// burst never grows an unbounded queue. Shared by the API's synchronous verifies
// (verify-admission.ts) and the sidecar's documents (sidecar/server/concurrency.ts), which
// differ only in how a wait is abandoned (a time limit, a client that went away) and in what
// they answer.

export interface TurnsOptions {
  concurrent: number;
  queued: number;
  /** The error for a caller that finds no turn and no place in the queue. */
  full(): Error;
  /** Told after every change of what runs and waits (for gauges). */
  changed?(): void;
}

/**
 * Given a function that abandons the wait with an error, sets up whatever may abandon it and
 * returns what undoes that once the turn comes.
 */
type AbandonWait = (abandon: (error: Error) => void) => () => void;

export interface Turns {
  /**
   * Resolves with the function that ends the turn (idempotent), or rejects with `full()`'s error or
   * the abandon's.
   */
  enter(abandonWait?: AbandonWait): Promise<() => void>;
  running(): number;
  waiting(): number;
  /** Whether `enter` would be refused at once. */
  isFull(): boolean;
}

export function createTurns(options: TurnsOptions): Turns {
  let running = 0;
  const queue: { start(): void }[] = [];
  const changed = () => options.changed?.();

  const release = () => {
    running--;
    const next = queue.shift();
    if (next) {
      running++;
      next.start();
    }
    changed();
  };

  const turn = (): (() => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };

  return {
    enter(abandonWait) {
      if (running < options.concurrent && queue.length === 0) {
        running++;
        changed();
        return Promise.resolve(turn());
      }
      if (queue.length >= options.queued) return Promise.reject(options.full());
      return new Promise((resolve, reject) => {
        let undo = () => {};
        const entry = {
          start: () => {
            undo();
            resolve(turn());
          },
        };
        queue.push(entry);
        changed();
        undo =
          abandonWait?.((error) => {
            const at = queue.indexOf(entry);
            if (at < 0) return;
            queue.splice(at, 1);
            changed();
            reject(error);
          }) ?? undo;
      });
    },
    running: () => running,
    waiting: () => queue.length,
    isFull: () => running >= options.concurrent && queue.length >= options.queued,
  };
}
