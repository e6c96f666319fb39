// Webhook deliveries waiting to be sent, and the log of every attempt. Rows are claimed with
// a lease (never a transaction held across network I/O); the delivery id and body bytes
// never change, so a retry, a redelivery or a duplicate after a crash is byte-identical. An
// attempt's log row is written in the same transaction as the outcome it led to, so the log
// and the state never disagree after a crash.
import type { Database, Sql } from "./database.ts";
import type { SecretSealer } from "./batches.ts";

export type DeliveryState = "pending" | "delivered" | "failed";
type AttemptKind = "scheduled" | "redelivery";

export interface Delivery {
  deliveryId: string;
  batchId: string;
  documentIndex: number;
  body: Uint8Array;
  /** Scheduled attempts so far, this one included: the index into the retry schedule. */
  attempts: number;
  /** Set when this claim is a redelivery: one attempt outside the retry schedule. */
  redeliverAt: number | null;
  callbackUrl: string;
  callbackSecret: string;
}

/**
 * One attempt as it happened; `status` is null when no HTTP answer came (then `error` says why).
 */
export interface AttemptRecord {
  startedAt: number;
  durationMs: number;
  status: number | null;
  error: string | null;
}

interface LoggedAttempt extends AttemptRecord {
  attempt: number;
  kind: AttemptKind;
}

export interface DeliveryLog {
  deliveryId: string;
  documentIndex: number;
  state: DeliveryState;
  attempts: LoggedAttempt[];
  /** When the next attempt is due, a requested redelivery first; null when none will be made. */
  nextAttemptAt: number | null;
}

interface OutboxRow {
  delivery_id: string;
  batch_id: string;
  document_index: number;
  state: DeliveryState;
  next_attempt_at: number;
  redeliver_at: number | null;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  kind: AttemptKind;
  started_at: number;
  duration_ms: number;
  status: number | null;
  error: string | null;
}

export class OutboxStore {
  constructor(
    private readonly db: Database,
    private readonly secrets: Pick<SecretSealer, "open">,
  ) {}

  /** Leases up to `limit` due deliveries to `owner`; two claimers never take one delivery. */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<Delivery[]> {
    return this.db.transaction(async (tx): Promise<Delivery[]> => {
      const rows = await tx.all<{
        delivery_id: string;
        batch_id: string;
        document_index: number;
        body: Uint8Array;
        attempts: number;
        redeliver_at: number | null;
      }>(
        `UPDATE outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + CASE WHEN redeliver_at IS NULL THEN 1 ELSE 0 END
         WHERE delivery_id IN (
           SELECT delivery_id FROM outbox
           WHERE lease_until <= ? AND ((state = 'pending' AND next_attempt_at <= ?) OR redeliver_at <= ?)
           ORDER BY COALESCE(redeliver_at, next_attempt_at) LIMIT ?${this.db.skipLocked})
         RETURNING delivery_id, batch_id, document_index, body, attempts, redeliver_at`,
        [owner, now + leaseMs, now, now, now, limit],
      );
      const deliveries: Delivery[] = [];
      for (const row of rows) {
        const target = (await tx.get<{
          callback_url: string;
          callback_secret: string;
          callback_secret_sealed: string | null;
        }>("SELECT callback_url, callback_secret, callback_secret_sealed FROM batches WHERE id = ?", [row.batch_id]))!;
        deliveries.push({
          deliveryId: row.delivery_id,
          batchId: row.batch_id,
          documentIndex: row.document_index,
          body: row.body,
          attempts: row.attempts,
          redeliverAt: row.redeliver_at,
          callbackUrl: target.callback_url,
          // A row from before secrets were sealed keeps plaintext until serve seals it at start.
          callbackSecret:
            target.callback_secret_sealed === null
              ? target.callback_secret
              : this.secrets.open(target.callback_secret_sealed, row.batch_id),
        });
      }
      return deliveries;
    });
  }

  private async logAttempt(tx: Sql, delivery: Delivery, attempt: AttemptRecord): Promise<void> {
    await tx.run(
      `INSERT INTO delivery_attempts (delivery_id, attempt, kind, started_at, duration_ms, status, error)
       VALUES (?, (SELECT COUNT(*) + 1 FROM delivery_attempts WHERE delivery_id = ?), ?, ?, ?, ?, ?)`,
      [
        delivery.deliveryId,
        delivery.deliveryId,
        delivery.redeliverAt === null ? "scheduled" : "redelivery",
        attempt.startedAt,
        Math.max(0, Math.round(attempt.durationMs)),
        attempt.status,
        attempt.status === null ? attempt.error : null,
      ],
    );
  }

  /**
   * Records a 2xx. Returns false (and logs nothing) when the lease was lost. A redelivery
   * request made while this attempt was in flight stays for the dispatcher to honour.
   */
  markDelivered(
    delivery: Delivery,
    owner: string,
    attempt: AttemptRecord & { status: number },
    now: number,
  ): Promise<boolean> {
    return this.db.transaction(async (tx): Promise<boolean> => {
      const updated = await tx.run(
        `UPDATE outbox SET state = 'delivered', last_status = ?, last_error = NULL, lease_owner = NULL, lease_until = 0,
           finished_at = ?, redeliver_at = CASE WHEN redeliver_at = ? THEN NULL ELSE redeliver_at END
         WHERE delivery_id = ? AND lease_owner = ?`,
        [attempt.status, now, delivery.redeliverAt, delivery.deliveryId, owner],
      );
      if (updated !== 1) return false;
      await this.logAttempt(tx, delivery, attempt);
      return true;
    });
  }

  /**
   * Records a failed attempt. A scheduled one schedules the next attempt, or gives up when
   * `nextAttemptAt` is null; a failed redelivery leaves the delivery's state and schedule as
   * they were. Returns false (and logs nothing) when the lease was lost.
   */
  markFailed(
    delivery: Delivery,
    owner: string,
    attempt: AttemptRecord,
    failure: { error: string },
    nextAttemptAt: number | null,
    now: number,
  ): Promise<boolean> {
    return this.db.transaction(async (tx): Promise<boolean> => {
      const updated =
        delivery.redeliverAt === null
          ? await tx.run(
              `UPDATE outbox SET state = ?, last_status = ?, last_error = ?, next_attempt_at = COALESCE(?, next_attempt_at),
                 lease_owner = NULL, lease_until = 0, finished_at = ?
               WHERE delivery_id = ? AND lease_owner = ?`,
              [
                nextAttemptAt === null ? "failed" : "pending",
                attempt.status,
                failure.error,
                nextAttemptAt,
                nextAttemptAt === null ? now : null,
                delivery.deliveryId,
                owner,
              ],
            )
          : await tx.run(
              `UPDATE outbox SET last_status = ?, last_error = ?, lease_owner = NULL, lease_until = 0,
                 redeliver_at = CASE WHEN redeliver_at = ? THEN NULL ELSE redeliver_at END
               WHERE delivery_id = ? AND lease_owner = ?`,
              [attempt.status, failure.error, delivery.redeliverAt, delivery.deliveryId, owner],
            );
      if (updated !== 1) return false;
      await this.logAttempt(tx, delivery, attempt);
      return true;
    });
  }

  /** Every delivery of a batch with its attempts, by document. */
  listForBatch(batchId: string): Promise<DeliveryLog[]> {
    return this.logs(batchId, null);
  }

  async find(batchId: string, deliveryId: string): Promise<DeliveryLog | null> {
    return (await this.logs(batchId, deliveryId))[0] ?? null;
  }

  /** The batch's deliveries with their attempts, or only the one named by `deliveryId`. */
  private async logs(batchId: string, deliveryId: string | null): Promise<DeliveryLog[]> {
    const only = deliveryId === null ? "" : " AND o.delivery_id = ?";
    const params = deliveryId === null ? [batchId] : [batchId, deliveryId];
    const rows = await this.db.all<OutboxRow>(
      `SELECT delivery_id, batch_id, document_index, state, next_attempt_at, redeliver_at FROM outbox o
       WHERE o.batch_id = ?${only} ORDER BY document_index, created_at`,
      params,
    );
    const attempts = await this.db.all<AttemptRow>(
      `SELECT a.* FROM delivery_attempts a JOIN outbox o ON o.delivery_id = a.delivery_id
       WHERE o.batch_id = ?${only} ORDER BY a.delivery_id, a.attempt`,
      params,
    );
    const byDelivery = new Map<string, LoggedAttempt[]>();
    for (const row of attempts) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push({
        attempt: row.attempt,
        kind: row.kind,
        startedAt: row.started_at,
        durationMs: row.duration_ms,
        status: row.status,
        error: row.error,
      });
      byDelivery.set(row.delivery_id, list);
    }
    return rows.map((row) => toLog(row, byDelivery.get(row.delivery_id) ?? []));
  }

  /**
   * Asks for one attempt now, outside the retry schedule, whatever the delivery's state.
   * A request already waiting keeps its time. Returns false when the batch has no such delivery.
   */
  async requestRedelivery(batchId: string, deliveryId: string, now: number): Promise<boolean> {
    return (
      (await this.db.run(
        "UPDATE outbox SET redeliver_at = COALESCE(redeliver_at, ?) WHERE batch_id = ? AND delivery_id = ?",
        [now, batchId, deliveryId],
      )) === 1
    );
  }

  async counts(): Promise<Record<DeliveryState, number>> {
    const rows = await this.db.all<{ state: string; n: number }>(
      "SELECT state, COUNT(*) AS n FROM outbox GROUP BY state",
    );
    const counts = { pending: 0, delivered: 0, failed: 0 };
    for (const row of rows) counts[row.state as keyof typeof counts] = row.n;
    return counts;
  }
}

function toLog(row: OutboxRow, attempts: LoggedAttempt[]): DeliveryLog {
  const scheduled = row.state === "pending" ? row.next_attempt_at : null;
  const nextAttemptAt =
    row.redeliver_at === null
      ? scheduled
      : scheduled === null
        ? row.redeliver_at
        : Math.min(row.redeliver_at, scheduled);
  return { deliveryId: row.delivery_id, documentIndex: row.document_index, state: row.state, attempts, nextAttemptAt };
}
