// Time slices for long computations on the event loop. The sidecar answers gRPC on the same
// thread that runs a page's pixel search, and a client drops a connection whose keepalive ping
// goes unanswered for 10 s (src/sidecar-client/target.ts), failing every call on it: the clone
// search alone held the loop 8 to 14 s on a 3225x2001 phone photo with two such documents in
// flight on 2 cores, and each such stall could drop the API's connection. A loop that asks
// `due()` every so often and awaits `pause()` when it says so hands the loop back at least every
// `sliceMs`.

/** Work between two pauses: long enough that pausing costs nothing, short to a ping or a health check. */
const DEFAULT_SLICE_MS = 20;

export interface TimeSlices {
  /** Whether the current slice is used up: cheap enough to ask in an inner loop. */
  due(): boolean;
  /** Lets everything waiting on the event loop run, then starts a new slice. */
  pause(): Promise<void>;
}

export function timeSlices(sliceMs = DEFAULT_SLICE_MS): TimeSlices {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= sliceMs,
    pause: async () => {
      await new Promise<void>((resume) => setImmediate(resume));
      started = performance.now();
    },
  };
}
