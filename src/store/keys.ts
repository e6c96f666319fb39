// API keys and their secrets. A key (id, mode, plan, limits, usage, results) outlives its
// secrets: a rotation adds a new secret and gives the old one a grace period, so the account,
// its limits and its history stay the same. Lifecycle events are audited in the transaction
// that makes them.
import type { Database, Sql } from "./database.ts";
import type { KeyMode } from "../keys/secret.ts";
import type { AuditStore } from "./audit.ts";

export type Plan = "sandbox" | "trial" | "paid";

export interface ApiKeyRecord {
  id: string;
  mode: KeyMode;
  plan: Plan;
  trialQuota: number | null;
  rateLimitPerSecond: number | null;
  monthlyCap: number | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyListing extends ApiKeyRecord {
  /** The latest request any of its secrets authenticated (recorded at most once a minute). */
  lastUsedAt: string | null;
  /** Until when a rotated-out secret is still accepted; null when none is. */
  previousValidUntil: string | null;
}

export type KeyLookup =
  | { ok: true; record: ApiKeyRecord; keyHash: string; lastUsedAt: string | null }
  | { ok: false; reason: "unknown" | "revoked" | "expired"; keyId: string | null };

interface Row {
  id: string;
  mode: KeyMode;
  plan: Plan;
  trial_quota: number | null;
  rate_limit_per_s: number | null;
  monthly_cap: number | null;
  created_at: string;
  revoked_at: string | null;
}

const toRecord = (row: Row): ApiKeyRecord => ({
  id: row.id,
  mode: row.mode,
  plan: row.plan,
  trialQuota: row.trial_quota,
  rateLimitPerSecond: row.rate_limit_per_s,
  monthlyCap: row.monthly_cap,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const KEY_COLUMNS =
  "k.id, k.mode, k.plan, k.trial_quota, k.rate_limit_per_s, k.monthly_cap, k.created_at, k.revoked_at";
/** Last use is written at most this often per secret: a write per request would be too many. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type RevokeOutcome = { kind: "revoked"; keyId: string } | { kind: "grace_ended"; keyId: string } | null;

export class KeyStore {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditStore,
  ) {}

  insert(record: Omit<ApiKeyRecord, "revokedAt">, keyHash: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO api_keys (id, key_hash, mode, plan, trial_quota, rate_limit_per_s, monthly_cap, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          keyHash,
          record.mode,
          record.plan,
          record.trialQuota,
          record.rateLimitPerSecond,
          record.monthlyCap,
          record.createdAt,
        ],
      );
      await tx.run("INSERT INTO api_key_secrets (key_hash, key_id, created_at) VALUES (?, ?, ?)", [
        keyHash,
        record.id,
        record.createdAt,
      ]);
      await this.audit.record(
        "key.created",
        record.id,
        record.createdAt,
        {
          mode: record.mode,
          plan: record.plan,
          trialQuota: record.trialQuota,
          rateLimitPerSecond: record.rateLimitPerSecond,
          monthlyCap: record.monthlyCap,
        },
        tx,
      );
    });
  }

  /**
   * Read on every request (no cache) so keys created, rotated or revoked elsewhere apply at once.
   */
  async findByHash(keyHash: string, nowIso: string): Promise<KeyLookup> {
    const row = await this.db.get<Row & { expires_at: string | null; last_used_at: string | null }>(
      `SELECT ${KEY_COLUMNS}, s.expires_at, s.last_used_at FROM api_key_secrets s JOIN api_keys k ON k.id = s.key_id WHERE s.key_hash = ?`,
      [keyHash],
    );
    if (!row) return { ok: false, reason: "unknown", keyId: null };
    if (row.revoked_at !== null) return { ok: false, reason: "revoked", keyId: row.id };
    if (row.expires_at !== null && row.expires_at <= nowIso) return { ok: false, reason: "expired", keyId: row.id };
    return { ok: true, record: toRecord(row), keyHash, lastUsedAt: row.last_used_at };
  }

  /**
   * Records that a secret was used, at most once a minute: `lastUsedAt` (from findByHash)
   * spares the write, and so the write lock, on every other request.
   */
  async touch(keyHash: string, nowMs: number, lastUsedAt: string | null = null): Promise<void> {
    const stale = new Date(nowMs - LAST_USED_RESOLUTION_MS).toISOString();
    if (lastUsedAt !== null && lastUsedAt >= stale) return;
    await this.db.run(
      "UPDATE api_key_secrets SET last_used_at = ? WHERE key_hash = ? AND (last_used_at IS NULL OR last_used_at < ?)",
      [new Date(nowMs).toISOString(), keyHash, stale],
    );
  }

  async get(id: string, sql: Sql = this.db): Promise<ApiKeyRecord | null> {
    const row = await sql.get<Row>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  async list(nowIso: string): Promise<KeyListing[]> {
    const rows = await this.db.all<Row & { last_used_at: string | null; previous_valid_until: string | null }>(
      `SELECT ${KEY_COLUMNS},
         (SELECT MAX(last_used_at) FROM api_key_secrets s WHERE s.key_id = k.id) AS last_used_at,
         (SELECT MAX(expires_at) FROM api_key_secrets s WHERE s.key_id = k.id AND s.expires_at > ?) AS previous_valid_until
       FROM api_keys k ORDER BY k.created_at, k.id`,
      [nowIso],
    );
    return rows.map((row) => ({
      ...toRecord(row),
      lastUsedAt: row.last_used_at,
      previousValidUntil: row.previous_valid_until,
    }));
  }

  /**
   * Gives the key a new secret; its other secrets stay accepted until `graceUntil` (never
   * longer than they already were). Returns false when the key does not exist or is revoked.
   */
  rotate(id: string, newHash: string, nowIso: string, graceUntilIso: string): Promise<boolean> {
    return this.db.transaction(async (tx): Promise<boolean> => {
      await tx.lock(`key:${id}`);
      const key = await this.get(id, tx);
      if (!key || key.revokedAt !== null) return false;
      await tx.run(
        "UPDATE api_key_secrets SET expires_at = ? WHERE key_id = ? AND (expires_at IS NULL OR expires_at > ?)",
        [graceUntilIso, id, graceUntilIso],
      );
      await tx.run("INSERT INTO api_key_secrets (key_hash, key_id, created_at) VALUES (?, ?, ?)", [
        newHash,
        id,
        nowIso,
      ]);
      await tx.run("UPDATE api_keys SET key_hash = ? WHERE id = ?", [newHash, id]);
      await this.audit.record("key.rotated", id, nowIso, { previousValidUntil: graceUntilIso }, tx);
      return true;
    });
  }

  /**
   * Revokes a key by id, or by one of its secrets. A rotated-out secret in its grace period
   * only loses its grace (the current secret keeps working); the current one revokes the key.
   */
  revoke(target: { id?: string; keyHash?: string }, at: string): Promise<RevokeOutcome> {
    return this.db.transaction(async (tx): Promise<RevokeOutcome> => {
      if (target.keyHash !== undefined) {
        const secret = await tx.get<{ key_id: string; expires_at: string | null }>(
          "SELECT key_id, expires_at FROM api_key_secrets WHERE key_hash = ?",
          [target.keyHash],
        );
        if (!secret) return null;
        await tx.lock(`key:${secret.key_id}`);
        if (secret.expires_at !== null) {
          if (secret.expires_at > at) {
            await tx.run("UPDATE api_key_secrets SET expires_at = ? WHERE key_hash = ?", [at, target.keyHash]);
            await this.audit.record("key.grace_ended", secret.key_id, at, {}, tx);
          }
          return { kind: "grace_ended", keyId: secret.key_id };
        }
        target = { id: secret.key_id };
      }
      const revoked = await tx.get<{ id: string }>(
        "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id",
        [at, target.id ?? null],
      );
      if (revoked) {
        await this.audit.record("key.revoked", revoked.id, at, {}, tx);
        return { kind: "revoked", keyId: revoked.id };
      }
      // Revoking a revoked key again changes nothing and says which key it was.
      return (await this.get(target.id ?? "", tx)) ? { kind: "revoked", keyId: target.id! } : null;
    });
  }
}
