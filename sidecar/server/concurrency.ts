// Admission of documents: a few are analysed at once (each holds pixels and OCR work), a bounded
// number wait their turn with their bytes still unread on the client's side, and beyond that the
// sidecar answers UNAVAILABLE at once, so the client tries another sidecar instead of queueing here.
import { status } from "@grpc/grpc-js";
import { DocumentRefused } from "./errors.ts";

export interface Admission {
  /** Resolves with a release function once the document may run. */
  enter(signal: AbortSignal): Promise<() => void>;
}

export function createAdmission(options: { concurrent: number; queued: number }): Admission {
  let running = 0;
  const queue: { start(): void; signal: AbortSignal }[] = [];

  const release = () => {
    running--;
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (next.signal.aborted) continue;
      running++;
      next.start();
      return;
    }
  };

  return {
    enter(signal) {
      if (running < options.concurrent) {
        running++;
        return Promise.resolve(once(release));
      }
      if (queue.length >= options.queued)
        return Promise.reject(new DocumentRefused(status.UNAVAILABLE, "the sidecar is busy"));
      return new Promise((resolve, reject) => {
        const entry = { signal, start: () => resolve(once(release)) };
        queue.push(entry);
        signal.addEventListener(
          "abort",
          () => {
            const at = queue.indexOf(entry);
            if (at >= 0) queue.splice(at, 1);
            reject(new DocumentRefused(status.CANCELLED, "the client went away while waiting"));
          },
          { once: true },
        );
      });
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
