// Billing counters for live keys: documents analysed in all and per UTC month. A check
// and its increment happen in one transaction holding the key's usage lock, so concurrent
// requests, on one instance or several, cannot both slip under a quota or a cap.
import type { Database, Sql } from "./database.ts";

const ALL_TIME = "all";

export const monthOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 7);

export interface Reservation {
  keyId: string;
  month: string;
  documents: number;
}

export type ReserveOutcome =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: "trial_exhausted" | "cap_exceeded" };

export interface ReserveLimits {
  trialQuota: number | null;
  monthlyCap: number | null;
  pricePerDocument: number;
}

export class UsageStore {
  constructor(private readonly db: Database) {}

  private async count(sql: Sql, keyId: string, period: string): Promise<number> {
    const row = await sql.get<{ documents: number }>(
      "SELECT documents FROM key_usage WHERE key_id = ? AND period = ?",
      [keyId, period],
    );
    return row?.documents ?? 0;
  }

  private async add(sql: Sql, keyId: string, period: string, documents: number): Promise<void> {
    await sql.run(
      `INSERT INTO key_usage (key_id, period, documents) VALUES (?, ?, ?)
       ON CONFLICT (key_id, period) DO UPDATE SET documents =
         CASE WHEN key_usage.documents + excluded.documents < 0 THEN 0 ELSE key_usage.documents + excluded.documents END`,
      [keyId, period, documents],
    );
  }

  reserve(keyId: string, documents: number, limits: ReserveLimits, nowMs: number): Promise<ReserveOutcome> {
    const month = monthOf(nowMs);
    return this.db.transaction(async (tx): Promise<ReserveOutcome> => {
      // The key's first reservation has no rows to lock yet: the lock covers them too.
      await tx.lock(`usage:${keyId}`);
      if (limits.trialQuota !== null && (await this.count(tx, keyId, ALL_TIME)) + documents > limits.trialQuota) {
        return { ok: false, reason: "trial_exhausted" };
      }
      // Compare in integer hundredths of a cent so 0.1 * 3 does not pass a cap of 0.3.
      const spendAfter = Math.round(
        ((await this.count(tx, keyId, month)) + documents) * limits.pricePerDocument * 10_000,
      );
      if (limits.monthlyCap !== null && spendAfter > Math.round(limits.monthlyCap * 10_000)) {
        return { ok: false, reason: "cap_exceeded" };
      }
      await this.add(tx, keyId, ALL_TIME, documents);
      await this.add(tx, keyId, month, documents);
      return { ok: true, reservation: { keyId, month, documents } };
    });
  }

  /** Gives back documents that were reserved but not analysed. */
  async release(reservation: Reservation, documents = reservation.documents): Promise<void> {
    if (documents <= 0) return;
    await this.db.transaction(async (tx) => {
      await this.add(tx, reservation.keyId, ALL_TIME, -documents);
      await this.add(tx, reservation.keyId, reservation.month, -documents);
    });
  }
}
