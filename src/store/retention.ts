// Results, evidence, fingerprints and finished batches are kept for the retention period and
// no longer. Raw documents never wait for this: they are deleted as soon as analysed.
import type { Database } from "./database.ts";
import type { VerificationStore } from "./verifications.ts";
import type { FingerprintStore } from "./fingerprints.ts";

export interface SweepCounts {
  verifications: number;
  fingerprints: number;
  batches: number;
}

/**
 * Safe to run from every instance: sweeps take turns, and each deletes what is expired when it
 * runs.
 */
export function sweepExpired(
  db: Database,
  stores: { verifications: VerificationStore; fingerprints: FingerprintStore },
  cutoffMs: number,
): Promise<SweepCounts> {
  return db.transaction(async (tx): Promise<SweepCounts> => {
    // One sweeper at a time: two deleting the same rows in different orders could deadlock.
    await tx.lock("retention");
    const verifications = await stores.verifications.deleteOlderThan(cutoffMs, tx);
    const fingerprints = await stores.fingerprints.deleteOlderThan(cutoffMs, tx);
    // A batch goes with its documents, deliveries and their attempts once it is complete and
    // nothing of it is still waiting to be delivered or redelivered.
    const expired = `SELECT id FROM batches WHERE status = 'completed' AND created_at < ?
      AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.batch_id = batches.id AND (outbox.state = 'pending' OR outbox.redeliver_at IS NOT NULL))`;
    await tx.run(
      `DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT delivery_id FROM outbox WHERE batch_id IN (${expired}))`,
      [cutoffMs],
    );
    await tx.run(`DELETE FROM outbox WHERE batch_id IN (${expired})`, [cutoffMs]);
    await tx.run(`DELETE FROM batch_documents WHERE batch_id IN (${expired})`, [cutoffMs]);
    const batches = await tx.run(`DELETE FROM batches WHERE id IN (${expired})`, [cutoffMs]);
    return { verifications, fingerprints, batches };
  });
}
