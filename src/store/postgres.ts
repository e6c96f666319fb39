// The shared engine: PostgreSQL through Bun's built-in client, a pool of connections that
// several `serve` instances and the CLI use at once. Statements keep the `?` placeholders the
// stores write; they become `$1…` here. Integers are int8 in the schema (millisecond times
// outgrow int4) and come back as numbers, as SQLite gives them.
import { SQL } from "bun";
import { POSTGRES_MIGRATIONS } from "./postgres-migrations.ts";
import type { Database, SchemaVersion, SqlValue, Transaction } from "./database.ts";

export interface PostgresOptions {
  /** Connections in this process's pool. */
  poolSize: number;
  /** A statement running longer is cancelled (and its transaction rolled back). */
  statementTimeoutMs: number;
}

/** Any number derived from this name: every process agrees on it without a table. */
const MIGRATION_LOCK = "docverify:migrations";

const numbered = new Map<string, string>();
function withNumberedPlaceholders(text: string): string {
  let converted = numbered.get(text);
  if (converted === undefined) {
    let n = 0;
    converted = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, converted);
  }
  return converted;
}

const toNumbers = <T>(row: Record<string, unknown>): T => {
  for (const column in row) if (typeof row[column] === "bigint") row[column] = Number(row[column]);
  return row as T;
};

function statements(client: SQL): Transaction {
  const query = (text: string, params: readonly SqlValue[] = []) =>
    client.unsafe(withNumberedPlaceholders(text), [...params]);
  return {
    all: async <T>(text: string, params?: readonly SqlValue[]) =>
      [...(await query(text, params))].map((row) => toNumbers<T>(row)),
    get: async <T>(text: string, params?: readonly SqlValue[]) => {
      const [row] = await query(text, params);
      return row === undefined ? null : toNumbers<T>(row);
    },
    run: async (text: string, params?: readonly SqlValue[]) => (await query(text, params)).affectedRows,
    lock: async (name: string) => {
      await client.unsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [name]);
    },
  };
}

export async function openPostgres(url: string, options: PostgresOptions): Promise<Database> {
  // Bun.SQL keeps no count of its pool: the callbacks and the wrappers below keep one for /metrics.
  let open = 0;
  let busy = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    busy++;
    try {
      return await work();
    } finally {
      busy--;
    }
  };
  const client = new SQL({
    url,
    max: options.poolSize,
    bigint: true,
    connection: { statement_timeout: options.statementTimeoutMs, application_name: "docverify" },
    onconnect: () => {
      open++;
    },
    // Also called for an attempt that never connected, which onconnect never counted.
    onclose: () => {
      open = Math.max(0, open - 1);
    },
  });
  let schema: SchemaVersion;
  try {
    schema = await migrate(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  const direct = statements(client);
  return {
    all: (text, params) => counted(() => direct.all(text, params)),
    get: (text, params) => counted(() => direct.get(text, params)),
    run: (text, params) => counted(() => direct.run(text, params)),
    engine: "postgres",
    skipLocked: " FOR UPDATE SKIP LOCKED",
    schema,
    transaction: (fn) =>
      counted(() => client.begin((tx) => fn(statements(tx))) as Promise<Awaited<ReturnType<typeof fn>>>),
    // Frees the dead row versions that held the old values; their pages are reused from then on.
    scrub: async (table) => {
      await client.unsafe(`VACUUM ${table}`);
    },
    pool: () => ({ size: options.poolSize, open, busy }),
    close: () => client.close(),
  };
}

/**
 * Brings the schema up to date. Every instance runs this at start; the transaction-scoped
 * lock makes them take turns, so the first applies what is missing and the others find it
 * done. PostgreSQL's DDL is transactional: a failed migration leaves nothing behind.
 */
async function migrate(client: SQL): Promise<SchemaVersion> {
  return client.begin(async (tx) => {
    await tx.unsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [MIGRATION_LOCK]);
    await tx.unsafe(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const [{ current }] = await tx.unsafe("SELECT COALESCE(MAX(version), 0) AS current FROM schema_migrations");
    const found = Number(current);
    for (let version = found; version < POSTGRES_MIGRATIONS.length; version++) {
      await tx.unsafe(POSTGRES_MIGRATIONS[version]!).simple();
      await tx.unsafe("INSERT INTO schema_migrations (version) VALUES ($1)", [version + 1]);
    }
    return { found, current: Math.max(found, POSTGRES_MIGRATIONS.length) };
  });
}
