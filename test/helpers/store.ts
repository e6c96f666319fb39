// Stores for the contract tests, one per engine, and direct reads of what no store method
// shows (a row's raw bytes, a table's row count) over a connection of their own, as an
// operator's sqlite3 or psql shell would read them.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { openStore, type Store, type StoreOptions } from "../../src/store/index.ts";
import { newDataDir } from "./service.ts";
import { newDatabaseUrl } from "./postgres.ts";

export const ENGINES = ["sqlite", "postgres"] as const;
export type TestEngine = (typeof ENGINES)[number];

export interface TestStore {
  store: Store;
  dataDir: string;
  /** Empty for SQLite. */
  databaseUrl: string;
  /** Rows of `text` read beside the store; integers as numbers on both engines. */
  read<T>(text: string): Promise<T[]>;
  close(): Promise<void>;
}

export function sqliteFileOf(dataDir: string): Database {
  return new Database(join(dataDir, "docverify.db"), { readonly: true, strict: true });
}

/** `existingUrl`: a PostgreSQL database to open rather than a new one. */
export async function openTestStore(
  engine: TestEngine,
  options: Pick<StoreOptions, "secretKeys"> = {},
  existingUrl?: string,
): Promise<TestStore> {
  const dataDir = newDataDir();
  const databaseUrl = engine === "postgres" ? (existingUrl ?? (await newDatabaseUrl())) : "";
  const store = await openStore({ dataDir, databaseUrl, ...options });
  if (engine === "sqlite") {
    const file = sqliteFileOf(dataDir);
    return {
      store,
      dataDir,
      databaseUrl,
      read: async <T>(text: string) => file.query(text).all() as T[],
      close: () => store.close().finally(() => file.close()),
    };
  }
  const shell = new SQL({ url: databaseUrl, max: 1, bigint: true });
  const numbers = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => [column, typeof value === "bigint" ? Number(value) : value]),
    );
  return {
    store,
    dataDir,
    databaseUrl,
    read: async <T>(text: string) =>
      [...(await shell.unsafe(text))].map((row: Record<string, unknown>) => numbers(row) as T),
    close: () => store.close().finally(() => shell.close()),
  };
}

/**
 * A batch of one document whose analysis failed, claimed and recorded at `now`, so its outbox
 * holds one delivery due then; the batch's id.
 */
export async function batchWithOneFailedDocument(
  store: Store,
  now: number,
  callbackUrl = "https://a.example/hooks",
): Promise<string> {
  const batch = await store.batches.create({
    keyId: "k",
    sandbox: true,
    callbackUrl,
    callbackSecret: "0123456789abcdef",
    documents: [new Uint8Array([1])],
    now,
  });
  const claimed = (await store.batches.claimNext("w", now, 60_000))!;
  await store.batches.recordOutcome({
    batch: claimed.batch,
    documentIndex: 0,
    owner: "w",
    keyId: "k",
    outcome: { ok: false, error: { code: "UNSUPPORTED_FORMAT", message: "x" } },
    now,
  });
  return batch.id;
}
