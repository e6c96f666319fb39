import { openSqlite } from "./sqlite.ts";
import { openPostgres } from "./postgres.ts";
import type { Database, Engine, PoolState, SchemaVersion } from "./database.ts";
import { KeyStore } from "./keys.ts";
import { UsageStore } from "./usage.ts";
import { VerificationStore } from "./verifications.ts";
import { BatchStore } from "./batches.ts";
import { OutboxStore } from "./outbox.ts";
import { FingerprintStore } from "./fingerprints.ts";
import { IdempotencyStore } from "./idempotency.ts";
import { CallbackSecretStore } from "./callback-secrets.ts";
import { AuditStore } from "./audit.ts";
import { RateLimitStore } from "./rate-limits.ts";
import { sweepExpired, type SweepCounts } from "./retention.ts";
import { Keyring, loadKeys, type KeySource } from "../keys/secret-keyring.ts";

export interface Store {
  /** Which engine holds the data: "sqlite" belongs to one process, "postgres" is shared. */
  engine: Engine;
  keys: KeyStore;
  audit: AuditStore;
  usage: UsageStore;
  verifications: VerificationStore;
  batches: BatchStore;
  outbox: OutboxStore;
  fingerprints: FingerprintStore;
  idempotency: IdempotencyStore;
  callbackSecrets: CallbackSecretStore;
  rateLimits: RateLimitStore;
  /** The keys sealing callback secrets, loaded (and a key file made) on first use. */
  keyring(): Keyring;
  /** Where the keyring's keys come from. */
  keySource(): KeySource["kind"];
  /** Deletes results, fingerprints and finished batches created before `cutoffMs`. */
  sweepExpired(cutoffMs: number): Promise<SweepCounts>;
  /** The schema version found when the store opened and the one it is at now. */
  schema: SchemaVersion;
  /** Whether the database answers a trivial query, and how (readiness). */
  ping(): Promise<{ ok: boolean; detail: string }>;
  /** This process's connections (metrics). */
  pool(): PoolState;
  close(): Promise<void>;
}

/** Longest a readiness probe waits for the database. */
const PING_TIMEOUT_MS = 2000;

/** Where the data lives; `Config` is one. */
export interface StoreOptions {
  /** The SQLite database's folder, and the key file's when `secretKeys` is empty. */
  dataDir: string;
  /** Empty or absent: SQLite in `dataDir`. postgres://…: a database shared by several instances. */
  databaseUrl?: string;
  databasePoolSize?: number;
  databaseStatementTimeoutMs?: number;
  /** DOCVERIFY_SECRET_KEY's keys (base64), first current; none: the data directory's key file. */
  secretKeys?: string[];
}

/**
 * The database the options name, migrated to the current schema, without the stores on it (`db
 * copy`).
 */
export async function openDatabase(options: Omit<StoreOptions, "secretKeys">): Promise<Database> {
  return options.databaseUrl
    ? await openPostgres(options.databaseUrl, {
        poolSize: options.databasePoolSize ?? 10,
        statementTimeoutMs: options.databaseStatementTimeoutMs ?? 30_000,
      })
    : openSqlite(options.dataDir);
}

/** Opens the database the options name, migrated to the current schema. */
export async function openStore(options: StoreOptions): Promise<Store> {
  return storeOn(await openDatabase(options), options);
}

function storeOn(db: Database, options: StoreOptions): Store {
  const { dataDir } = options;
  const verifications = new VerificationStore(db);
  const fingerprints = new FingerprintStore(db);
  const audit = new AuditStore(db);
  // Lazy: commands that never touch a callback secret (keys, audit) make no key file.
  let loaded: { keyring: Keyring; source: KeySource["kind"] } | null = null;
  const load = () => {
    if (!loaded) {
      const source = loadKeys(
        dataDir,
        options.secretKeys?.map((key) => new Uint8Array(Buffer.from(key, "base64"))),
      );
      loaded = { keyring: new Keyring(source.keys), source: source.kind };
    }
    return loaded;
  };
  const sealer = {
    seal: (plaintext: string, context: string) => load().keyring.seal(plaintext, context),
    open: (sealed: string, context: string) => load().keyring.open(sealed, context),
  };
  return {
    engine: db.engine,
    keys: new KeyStore(db, audit),
    audit,
    usage: new UsageStore(db),
    verifications,
    batches: new BatchStore(db, verifications, sealer),
    outbox: new OutboxStore(db, sealer),
    fingerprints,
    idempotency: new IdempotencyStore(db),
    callbackSecrets: new CallbackSecretStore(db),
    rateLimits: new RateLimitStore(db),
    keyring: () => load().keyring,
    keySource: () => load().source,
    sweepExpired: (cutoffMs) => sweepExpired(db, { verifications, fingerprints }, cutoffMs),
    schema: db.schema,
    ping: async () => {
      const started = performance.now();
      let timer: Timer | undefined;
      // An unreachable server can keep a connection attempt waiting far longer than a probe may.
      const late = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)),
      );
      try {
        await Promise.race([db.get("SELECT 1"), late]);
        return {
          ok: true,
          detail: `${db.engine}, schema ${db.schema.current}, answered in ${Math.round(performance.now() - started)} ms`,
        };
      } catch (error) {
        // The driver's message names what failed (refused, timed out, authentication); never the
        // URL.
        return { ok: false, detail: `${db.engine}: ${error instanceof Error ? error.message : String(error)}` };
      } finally {
        clearTimeout(timer);
      }
    },
    pool: () => db.pool(),
    close: () => db.close(),
  };
}
