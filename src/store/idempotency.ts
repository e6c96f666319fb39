// Idempotency keys: the first answer to a request, kept per API key so a retried request
// gets it again instead of being analysed, billed or enqueued twice. Claiming a key and
// reading what it holds happen in one transaction holding the key's lock, so of two concurrent
// requests with one key exactly one goes ahead.
import type { Database } from "./database.ts";

export interface StoredAnswer {
  status: number;
  body: Uint8Array;
}

export type IdempotencyClaim =
  /** This request owns the key: do the work, then `complete` or `abandon`. */
  | { kind: "claimed" }
  /** The key already holds the answer to the same request. */
  | { kind: "replay"; answer: StoredAnswer }
  /** The key was used for a different request. */
  | { kind: "mismatch" }
  /** The same request is being worked on under this key right now. */
  | { kind: "in_progress"; lockedUntil: number };

export interface ClaimInput {
  keyId: string;
  idempotencyKey: string;
  requestHash: string;
  now: number;
  /** How long the answer is kept. */
  ttlMs: number;
  /** How long an unfinished claim blocks others, should its process die mid-request. */
  lockMs: number;
}

interface Row {
  request_hash: string;
  state: "in_progress" | "done";
  status: number | null;
  response: Uint8Array | null;
  locked_until: number;
  expires_at: number;
}

export class IdempotencyStore {
  constructor(private readonly db: Database) {}

  claim(input: ClaimInput): Promise<IdempotencyClaim> {
    return this.db.transaction(async (tx): Promise<IdempotencyClaim> => {
      // The key's row may not exist yet, so no row lock can keep a second claimer out.
      await tx.lock(`idempotency:${input.keyId}:${input.idempotencyKey}`);
      const row = await tx.get<Row>(
        "SELECT request_hash, state, status, response, locked_until, expires_at FROM idempotency_keys WHERE key_id = ? AND idempotency_key = ?",
        [input.keyId, input.idempotencyKey],
      );
      const live = row !== null && row.expires_at > input.now && (row.state === "done" || row.locked_until > input.now);
      if (row && live) {
        if (row.request_hash !== input.requestHash) return { kind: "mismatch" };
        if (row.state === "done") return { kind: "replay", answer: { status: row.status!, body: row.response! } };
        return { kind: "in_progress", lockedUntil: row.locked_until };
      }
      await tx.run(
        `INSERT INTO idempotency_keys (key_id, idempotency_key, request_hash, state, locked_until, created_at, expires_at)
         VALUES (?, ?, ?, 'in_progress', ?, ?, ?)
         ON CONFLICT (key_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_progress',
           status = NULL, response = NULL, locked_until = excluded.locked_until, created_at = excluded.created_at, expires_at = excluded.expires_at`,
        [
          input.keyId,
          input.idempotencyKey,
          input.requestHash,
          input.now + input.lockMs,
          input.now,
          input.now + input.ttlMs,
        ],
      );
      return { kind: "claimed" };
    });
  }

  /** Keeps the answer for replays until the key expires. */
  async complete(keyId: string, idempotencyKey: string, answer: StoredAnswer): Promise<void> {
    await this.db.run(
      "UPDATE idempotency_keys SET state = 'done', status = ?, response = ?, locked_until = 0 WHERE key_id = ? AND idempotency_key = ? AND state = 'in_progress'",
      [answer.status, answer.body, keyId, idempotencyKey],
    );
  }

  /** Frees the key without an answer, so the same request may be tried again. */
  async abandon(keyId: string, idempotencyKey: string): Promise<void> {
    await this.db.run(
      "DELETE FROM idempotency_keys WHERE key_id = ? AND idempotency_key = ? AND state = 'in_progress'",
      [keyId, idempotencyKey],
    );
  }

  /**
   * At start-up, only by a process that owns the whole store (the SQLite data directory): nothing
   * else is in flight.
   */
  abandonAllInProgress(): Promise<number> {
    return this.db.run("DELETE FROM idempotency_keys WHERE state = 'in_progress'");
  }

  deleteExpired(now: number): Promise<number> {
    return this.db.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", [now]);
  }
}
