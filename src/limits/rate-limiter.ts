// Per-key token bucket: `ratePerSecond` tokens a second, bursts up to one second's worth.
// In memory, per process: a limit is a protection, not a bill, so it need not survive a
// restart.

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSec: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  take(keyId: string, ratePerSecond: number, nowMs: number): RateDecision {
    const capacity = Math.max(1, ratePerSecond);
    const bucket = this.buckets.get(keyId) ?? { tokens: capacity, updatedMs: nowMs };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * ratePerSecond);
    bucket.updatedMs = nowMs;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSec: Math.ceil((1 - bucket.tokens) / ratePerSecond) };
  }
}
