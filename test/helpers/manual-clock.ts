// A clock that moves only when a test moves it: retry delays, leases, rate buckets and
// monthly caps are then exact numbers instead of sleeps and tolerances.
import type { Clock } from "../../src/clock.ts";

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(epochMs: number): void;
}

/** Starts at 2026-03-14T12:00:00Z unless told otherwise: mid-month, so cap answers are known. */
export function manualClock(startMs = Date.UTC(2026, 2, 14, 12, 0, 0)): ManualClock {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance: (ms) => {
      nowMs += ms;
    },
    set: (epochMs) => {
      nowMs = epochMs;
    },
  };
}
