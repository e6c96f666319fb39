import type { Db } from "./db";
import type { KeyMode } from "../keys/secret";

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

export class KeyStore {
  constructor(private readonly db: Db) {}

  insert(record: Omit<ApiKeyRecord, "revokedAt">, keyHash: string): void {
    this.db
      .query(
        `INSERT INTO api_keys (id, key_hash, mode, plan, trial_quota, rate_limit_per_s, monthly_cap, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(record.id, keyHash, record.mode, record.plan, record.trialQuota, record.rateLimitPerSecond, record.monthlyCap, record.createdAt);
  }

  /** Read on every request (no cache) so keys created or revoked elsewhere apply at once. */
  findActiveByHash(keyHash: string): ApiKeyRecord | null {
    const row = this.db.query("SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL").get(keyHash) as Row | null;
    return row ? toRecord(row) : null;
  }

  list(): ApiKeyRecord[] {
    return (this.db.query("SELECT * FROM api_keys ORDER BY created_at, id").all() as Row[]).map(toRecord);
  }

  /** Revokes by id or by key hash; returns the id revoked, or null when none matched. */
  revoke(idOrHash: { id?: string; keyHash?: string }, at: string): string | null {
    const row = this.db
      .query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? OR key_hash = ? RETURNING id")
      .get(at, idOrHash.id ?? null, idOrHash.keyHash ?? null) as { id: string } | null;
    return row?.id ?? null;
  }
}
