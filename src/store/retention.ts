// Results, evidence, fingerprints and finished batches are kept for the retention period and
// no longer. Raw documents never wait for this: they are deleted as soon as analysed.
import type { Store } from ".";

export interface SweepCounts {
  verifications: number;
  fingerprints: number;
  batches: number;
}

export function sweepExpired(store: Store, cutoffMs: number): SweepCounts {
  const { db } = store;
  return db
    .transaction((): SweepCounts => {
      const verifications = store.verifications.deleteOlderThan(cutoffMs);
      const fingerprints = store.fingerprints.deleteOlderThan(cutoffMs);
      // A batch goes with its documents, deliveries and their attempts once it is complete and
      // nothing of it is still waiting to be delivered or redelivered.
      const expired = `SELECT id FROM batches WHERE status = 'completed' AND created_at < ?
        AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.batch_id = batches.id AND (outbox.state = 'pending' OR outbox.redeliver_at IS NOT NULL))`;
      db.query(`DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT delivery_id FROM outbox WHERE batch_id IN (${expired}))`).run(cutoffMs);
      db.query(`DELETE FROM outbox WHERE batch_id IN (${expired})`).run(cutoffMs);
      db.query(`DELETE FROM batch_documents WHERE batch_id IN (${expired})`).run(cutoffMs);
      const batches = db.query(`DELETE FROM batches WHERE id IN (${expired})`).run(cutoffMs).changes;
      return { verifications, fingerprints, batches };
    })
    .immediate();
}
