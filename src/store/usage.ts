// Billing counters for live keys: documents analysed in all and per UTC month. A check
// and its increment happen in one IMMEDIATE transaction so concurrent requests cannot
// both slip under a quota or a cap.
import type { Db } from "./db";

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
  constructor(private readonly db: Db) {}

  private count(keyId: string, period: string): number {
    const row = this.db.query("SELECT documents FROM key_usage WHERE key_id = ? AND period = ?").get(keyId, period) as
      | { documents: number }
      | null;
    return row?.documents ?? 0;
  }

  private add(keyId: string, period: string, documents: number) {
    this.db
      .query(
        `INSERT INTO key_usage (key_id, period, documents) VALUES (?, ?, ?)
         ON CONFLICT (key_id, period) DO UPDATE SET documents = MAX(0, documents + excluded.documents)`,
      )
      .run(keyId, period, documents);
  }

  reserve(keyId: string, documents: number, limits: ReserveLimits, nowMs: number): ReserveOutcome {
    const month = monthOf(nowMs);
    return this.db
      .transaction((): ReserveOutcome => {
        if (limits.trialQuota !== null && this.count(keyId, ALL_TIME) + documents > limits.trialQuota) {
          return { ok: false, reason: "trial_exhausted" };
        }
        // Compare in integer hundredths of a cent so 0.1 * 3 does not pass a cap of 0.3.
        const spendAfter = Math.round((this.count(keyId, month) + documents) * limits.pricePerDocument * 10_000);
        if (limits.monthlyCap !== null && spendAfter > Math.round(limits.monthlyCap * 10_000)) {
          return { ok: false, reason: "cap_exceeded" };
        }
        this.add(keyId, ALL_TIME, documents);
        this.add(keyId, month, documents);
        return { ok: true, reservation: { keyId, month, documents } };
      })
      .immediate();
  }

  /** Gives back documents that were reserved but not analysed. */
  release(reservation: Reservation, documents = reservation.documents): void {
    if (documents <= 0) return;
    this.db.transaction(() => {
      this.add(reservation.keyId, ALL_TIME, -documents);
      this.add(reservation.keyId, reservation.month, -documents);
    })();
  }
}
