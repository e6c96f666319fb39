// Per-key token bucket: `ratePerSecond` tokens a second, bursts up to one second's worth.
// The arithmetic lives here; where a bucket is kept is the caller's: the store keeps it in
// the database (src/store/rate-limits.ts) so every instance sharing it draws on one bucket.

export interface Bucket {
  tokens: number;
  updatedMs: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSec: number };

/**
 * Takes one token from `bucket` (absent: a full one) at `nowMs`; returns the bucket to keep and the
 * decision.
 */
export function takeToken(
  bucket: Bucket | null,
  ratePerSecond: number,
  nowMs: number,
): { bucket: Bucket; decision: RateDecision } {
  const capacity = Math.max(1, ratePerSecond);
  const previous = bucket ?? { tokens: capacity, updatedMs: nowMs };
  // Another machine's clock may be a little ahead: time never runs backwards for a bucket.
  const elapsedMs = Math.max(0, nowMs - previous.updatedMs);
  const tokens = Math.min(capacity, previous.tokens + (elapsedMs / 1000) * ratePerSecond);
  const updatedMs = Math.max(nowMs, previous.updatedMs);
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, updatedMs }, decision: { ok: true } };
  return {
    bucket: { tokens, updatedMs },
    decision: { ok: false, retryAfterSec: Math.ceil((1 - tokens) / ratePerSecond) },
  };
}

export interface RateLimiter {
  take(keyId: string, ratePerSecond: number, nowMs: number): Promise<RateDecision>;
}
