// Admission of documents: a few are analysed at once (each holds pixels and OCR work), a bounded
// number wait their turn with their bytes still unread on the client's side, and beyond that the
// sidecar answers UNAVAILABLE at once, so the client tries another sidecar instead of queueing
// here.
import { status } from "@grpc/grpc-js";
import { createTurns } from "../../src/limits/turns.ts";
import { DocumentRefused } from "./errors.ts";

export interface Admission {
  /** Resolves with a release function once the document may run. */
  enter(signal: AbortSignal): Promise<() => void>;
}

export function createAdmission(options: { concurrent: number; queued: number }): Admission {
  const turns = createTurns({
    ...options,
    full: () => new DocumentRefused(status.UNAVAILABLE, "the sidecar is busy"),
  });
  return {
    enter: (signal) =>
      turns.enter((abandon) => {
        const cancelled = () => abandon(new DocumentRefused(status.CANCELLED, "the client went away while waiting"));
        signal.addEventListener("abort", cancelled, { once: true });
        return () => signal.removeEventListener("abort", cancelled);
      }),
  };
}
