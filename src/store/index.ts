import { openDatabase, type Db } from "./db";
import { KeyStore } from "./keys";
import { UsageStore } from "./usage";
import { VerificationStore } from "./verifications";
import { BatchStore } from "./batches";
import { OutboxStore } from "./outbox";
import { FingerprintStore } from "./fingerprints";
import { IdempotencyStore } from "./idempotency";
import { CallbackSecretStore } from "./callback-secrets";
import { AuditStore } from "./audit";
import { Keyring, loadKeys, type KeySource } from "../keys/secret-keyring";

export interface Store {
  db: Db;
  keys: KeyStore;
  audit: AuditStore;
  usage: UsageStore;
  verifications: VerificationStore;
  batches: BatchStore;
  outbox: OutboxStore;
  fingerprints: FingerprintStore;
  idempotency: IdempotencyStore;
  callbackSecrets: CallbackSecretStore;
  /** The keys sealing callback secrets, loaded (and a key file made) on first use. */
  keyring(): Keyring;
  /** Where the keyring's keys come from. */
  keySource(): KeySource["kind"];
  /** True when the database answers a trivial query (readiness). */
  ping(): boolean;
  close(): void;
}

export interface StoreOptions {
  /** DOCVERIFY_SECRET_KEY's keys (base64), first current; none: the data directory's key file. */
  secretKeys?: string[];
}

export function createStore(dataDir: string, options: StoreOptions = {}): Store {
  const db = openDatabase(dataDir);
  const verifications = new VerificationStore(db);
  const audit = new AuditStore(db);
  // Lazy: commands that never touch a callback secret (keys, audit) make no key file.
  let loaded: { keyring: Keyring; source: KeySource["kind"] } | null = null;
  const load = () => {
    if (!loaded) {
      const source = loadKeys(dataDir, options.secretKeys?.map((key) => new Uint8Array(Buffer.from(key, "base64"))));
      loaded = { keyring: new Keyring(source.keys), source: source.kind };
    }
    return loaded;
  };
  const sealer = { seal: (plaintext: string, context: string) => load().keyring.seal(plaintext, context), open: (sealed: string, context: string) => load().keyring.open(sealed, context) };
  return {
    db,
    keys: new KeyStore(db, audit),
    audit,
    usage: new UsageStore(db),
    verifications,
    batches: new BatchStore(db, verifications, sealer),
    outbox: new OutboxStore(db, sealer),
    fingerprints: new FingerprintStore(db),
    idempotency: new IdempotencyStore(db),
    callbackSecrets: new CallbackSecretStore(db),
    keyring: () => load().keyring,
    keySource: () => load().source,
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
