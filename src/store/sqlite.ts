// The embedded engine: one SQLite file in WAL mode, one connection. Migrations are plain SQL
// applied in order and recorded in user_version, so an older data directory upgrades on open.
// bun:sqlite is synchronous; the asynchronous face queues every statement and transaction
// behind the one before, so a transaction's awaits never let another caller's statement
// into it.
import { Database as SqliteHandle } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations.ts";
import type { Database, SchemaVersion, Sql, SqlValue, Transaction } from "./database.ts";

function statements(handle: SqliteHandle): Transaction {
  const query = (text: string) => handle.query<Record<string, SqlValue>, SqlValue[]>(text);
  return {
    all: async <T>(text: string, params: readonly SqlValue[] = []) => query(text).all(...params) as T[],
    get: async <T>(text: string, params: readonly SqlValue[] = []) => query(text).get(...params) as T | null,
    run: async (text: string, params: readonly SqlValue[] = []) => query(text).run(...params).changes,
    // BEGIN IMMEDIATE already makes every writer wait for the one holding the database.
    lock: async () => {},
  };
}

export function openSqlite(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const handle = new SqliteHandle(join(dataDir, "docverify.db"), { create: true, strict: true });
  handle.exec("PRAGMA journal_mode = WAL");
  handle.exec("PRAGMA busy_timeout = 5000");
  handle.exec("PRAGMA synchronous = NORMAL");
  handle.exec("PRAGMA foreign_keys = ON");
  // Deleted and overwritten content is zeroed, so a secret sealed in place leaves no plaintext
  // behind.
  handle.exec("PRAGMA secure_delete = ON");
  const schema = migrate(handle);

  const direct = statements(handle);
  let tail: Promise<unknown> = Promise.resolve();
  let busy = 0;
  let open = true;
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    busy++;
    const result = tail.then(work).finally(() => busy--);
    tail = result.catch(() => undefined);
    return result;
  };
  const sql: Sql = {
    all: (text, params) => serially(() => direct.all(text, params)),
    get: (text, params) => serially(() => direct.get(text, params)),
    run: (text, params) => serially(() => direct.run(text, params)),
  };
  return {
    ...sql,
    engine: "sqlite",
    skipLocked: "",
    schema,
    transaction: (fn) =>
      serially(async () => {
        handle.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(direct);
          handle.exec("COMMIT");
          return result;
        } catch (error) {
          handle.exec("ROLLBACK");
          throw error;
        }
      }),
    // secure_delete zeroed the old bytes in the file; the checkpoint takes them out of the WAL.
    scrub: () => serially(async () => void handle.exec("PRAGMA wal_checkpoint(TRUNCATE)")),
    pool: () => ({ size: 1, open: open ? 1 : 0, busy }),
    close: () =>
      serially(async () => {
        handle.close();
        open = false;
      }),
  };
}

function migrate(handle: SqliteHandle): SchemaVersion {
  const { user_version: found } = handle.query("PRAGMA user_version").get() as { user_version: number };
  for (let version = found; version < MIGRATIONS.length; version++) {
    handle
      .transaction(() => {
        handle.exec(MIGRATIONS[version]!);
        handle.exec(`PRAGMA user_version = ${version + 1}`);
      })
      .immediate();
  }
  return { found, current: Math.max(found, MIGRATIONS.length) };
}
