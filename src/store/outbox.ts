// Webhook deliveries waiting to be sent. Rows are claimed with a lease (never a
// transaction held across network I/O); the delivery id and body bytes never change, so a
// retry or a duplicate after a crash is byte-identical.
import type { Db } from "./db";

export interface Delivery {
  deliveryId: string;
  batchId: string;
  documentIndex: number;
  body: Uint8Array;
  attempts: number;
  callbackUrl: string;
  callbackSecret: string;
}

export class OutboxStore {
  constructor(private readonly db: Db) {}

  claimDue(owner: string, now: number, leaseMs: number, limit: number): Delivery[] {
    return this.db
      .transaction((): Delivery[] => {
        const rows = this.db
          .query(
            `UPDATE outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
             WHERE delivery_id IN (
               SELECT delivery_id FROM outbox
               WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until <= ?
               ORDER BY next_attempt_at LIMIT ?)
             RETURNING delivery_id, batch_id, document_index, body, attempts`,
          )
          .all(owner, now + leaseMs, now, now, limit) as { delivery_id: string; batch_id: string; document_index: number; body: Uint8Array; attempts: number }[];
        const batch = this.db.query("SELECT callback_url, callback_secret FROM batches WHERE id = ?");
        return rows.map((row) => {
          const target = batch.get(row.batch_id) as { callback_url: string; callback_secret: string };
          return {
            deliveryId: row.delivery_id,
            batchId: row.batch_id,
            documentIndex: row.document_index,
            body: row.body,
            attempts: row.attempts,
            callbackUrl: target.callback_url,
            callbackSecret: target.callback_secret,
          };
        });
      })
      .immediate();
  }

  markDelivered(deliveryId: string, owner: string, status: number, now: number): void {
    this.db
      .query(
        `UPDATE outbox SET state = 'delivered', last_status = ?, last_error = NULL, lease_owner = NULL, lease_until = 0, finished_at = ?
         WHERE delivery_id = ? AND lease_owner = ?`,
      )
      .run(status, now, deliveryId, owner);
  }

  /** Schedules the next attempt, or gives up when `nextAttemptAt` is null. */
  markFailed(deliveryId: string, owner: string, failure: { status: number | null; error: string }, nextAttemptAt: number | null, now: number): void {
    this.db
      .query(
        `UPDATE outbox SET state = ?, last_status = ?, last_error = ?, next_attempt_at = COALESCE(?, next_attempt_at),
           lease_owner = NULL, lease_until = 0, finished_at = ?
         WHERE delivery_id = ? AND lease_owner = ?`,
      )
      .run(nextAttemptAt === null ? "failed" : "pending", failure.status, failure.error, nextAttemptAt, nextAttemptAt === null ? now : null, deliveryId, owner);
  }

  releaseForeignLeases(owner: string): number {
    return this.db.query("UPDATE outbox SET lease_owner = NULL, lease_until = 0 WHERE state = 'pending' AND lease_owner IS NOT NULL AND lease_owner != ?").run(owner).changes;
  }

  counts(): Record<"pending" | "delivered" | "failed", number> {
    const rows = this.db.query("SELECT state, COUNT(*) AS n FROM outbox GROUP BY state").all() as { state: string; n: number }[];
    const counts = { pending: 0, delivered: 0, failed: 0 };
    for (const row of rows) counts[row.state as keyof typeof counts] = row.n;
    return counts;
  }
}
