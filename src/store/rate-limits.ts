// Request-rate buckets, one row per rate-limited key, shared by every instance on the
// database: N instances admit a key's rate, not N times it. Each take reads and writes the
// bucket in one transaction under the key's lock, so two instances never spend one token.
import type { Database } from "./database.ts";
import { takeToken, type RateDecision, type RateLimiter } from "../limits/rate-limiter.ts";

export class RateLimitStore implements RateLimiter {
  constructor(private readonly db: Database) {}

  take(keyId: string, ratePerSecond: number, nowMs: number): Promise<RateDecision> {
    return this.db.transaction(async (tx): Promise<RateDecision> => {
      // A key's first request has no row to lock yet: the lock covers it too.
      await tx.lock(`rate:${keyId}`);
      const row = await tx.get<{ tokens: number; updated_ms: number }>(
        "SELECT tokens, updated_ms FROM rate_buckets WHERE key_id = ?",
        [keyId],
      );
      const { bucket, decision } = takeToken(
        row && { tokens: row.tokens, updatedMs: row.updated_ms },
        ratePerSecond,
        nowMs,
      );
      await tx.run(
        `INSERT INTO rate_buckets (key_id, tokens, updated_ms) VALUES (?, ?, ?)
         ON CONFLICT (key_id) DO UPDATE SET tokens = excluded.tokens, updated_ms = excluded.updated_ms`,
        [keyId, bucket.tokens, bucket.updatedMs],
      );
      return decision;
    });
  }
}
