import { openDatabase, type Db } from "./db";
import { KeyStore } from "./keys";
import { UsageStore } from "./usage";
import { VerificationStore } from "./verifications";
import { BatchStore } from "./batches";
import { OutboxStore } from "./outbox";
import { FingerprintStore } from "./fingerprints";
import { IdempotencyStore } from "./idempotency";

export interface Store {
  db: Db;
  keys: KeyStore;
  usage: UsageStore;
  verifications: VerificationStore;
  batches: BatchStore;
  outbox: OutboxStore;
  fingerprints: FingerprintStore;
  idempotency: IdempotencyStore;
  /** True when the database answers a trivial query (readiness). */
  ping(): boolean;
  close(): void;
}

export function createStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const verifications = new VerificationStore(db);
  return {
    db,
    keys: new KeyStore(db),
    usage: new UsageStore(db),
    verifications,
    batches: new BatchStore(db, verifications),
    outbox: new OutboxStore(db),
    fingerprints: new FingerprintStore(db),
    idempotency: new IdempotencyStore(db),
    ping: () => {
      try {
        db.query("SELECT 1").get();
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.close(),
  };
}
