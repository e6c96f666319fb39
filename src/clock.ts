/** Injected wherever time matters, so tests can control it without mocking modules. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
