// Every row of one database into another, empty one: how a SQLite deployment moves to
// PostgreSQL (`docverify db copy`), or back. Both ends are opened, and so migrated, by this
// release, so they hold one schema (test/unit/store/schema-parity.test.ts). The copy is one
// transaction on the target: it lands whole or not at all, and a failed copy can be rerun.
import type { Database, Sql, SqlValue } from "./database.ts";

/**
 * Every table, parents before the tables whose foreign keys name them, each with its primary
 * key (the order rows are read in, page after page). A table missing here fails the copy test.
 */
export const COPIED_TABLES = [
  { name: "api_keys", key: ["id"] },
  { name: "api_key_secrets", key: ["key_hash"] },
  { name: "key_usage", key: ["key_id", "period"] },
  { name: "verifications", key: ["id"] },
  { name: "fingerprints", key: ["key_id", "verification_id"] },
  { name: "batches", key: ["id"] },
  // Pending documents carry their content (up to the body limit each): few per page.
  { name: "batch_documents", key: ["batch_id", "document_index"], pageRows: 4 },
  { name: "outbox", key: ["delivery_id"] },
  { name: "delivery_attempts", key: ["delivery_id", "attempt"] },
  { name: "idempotency_keys", key: ["key_id", "idempotency_key"] },
  { name: "audit_log", key: ["id"] },
  { name: "rate_buckets", key: ["key_id"] },
] as const;

type Row = Record<string, SqlValue>;

/** Rows read and inserted at once; parameters stay far below either engine's limit. */
const PAGE_ROWS = 200;

export interface CopyOptions {
  /** Rewrites a row before it is written (sealing callback secrets under the target's key). */
  transform?(table: string, row: Row): Row;
}

/**
 * Copies every table of `from` into `to`; returns the rows copied per table. Refuses a target
 * holding any row.
 */
export async function copyDatabase(
  from: Database,
  to: Database,
  options: CopyOptions = {},
): Promise<Record<string, number>> {
  return to.transaction(async (tx) => {
    for (const { name } of COPIED_TABLES) {
      if (await tx.get(`SELECT 1 AS found FROM ${name} LIMIT 1`)) {
        throw new CopyRefused(`the target already holds rows in ${name}: db copy fills an empty database only`);
      }
    }
    const counts: Record<string, number> = {};
    for (const table of COPIED_TABLES) {
      let copied = 0;
      for await (const page of pages(from, table.name, table.key, "pageRows" in table ? table.pageRows : PAGE_ROWS)) {
        const rows = options.transform ? page.map((row) => options.transform!(table.name, row)) : page;
        await insertRows(tx, to.engine, table.name, rows);
        copied += rows.length;
      }
      const written = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table.name}`);
      if (Number(written?.n) !== copied)
        throw new Error(`${table.name}: ${copied} rows copied but ${written?.n} found in the target`);
      counts[table.name] = copied;
    }
    if (to.engine === "postgres" && counts.audit_log! > 0) {
      // Rows were inserted with their own ids: the identity must carry on after the largest.
      await tx.get("SELECT setval(pg_get_serial_sequence('audit_log', 'id'), (SELECT MAX(id) FROM audit_log))");
    }
    return counts;
  });
}

export class CopyRefused extends Error {}

/** Pages of `table` in primary-key order, each read after the last key of the one before. */
async function* pages(db: Sql, table: string, key: readonly string[], size: number): AsyncGenerator<Row[]> {
  const keyList = key.join(", ");
  const marks = key.map(() => "?").join(", ");
  let after: SqlValue[] | null = null;
  for (;;) {
    const where: string = after === null ? "" : `WHERE (${keyList}) > (${marks})`;
    const rows: Row[] = await db.all<Row>(
      `SELECT * FROM ${table} ${where} ORDER BY ${keyList} LIMIT ${size}`,
      after ?? [],
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    const last: Row = rows.at(-1)!;
    after = key.map((column) => last[column]!);
  }
}

async function insertRows(tx: Sql, engine: Database["engine"], table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  // audit_log's id is an identity column on PostgreSQL: keeping the source's ids must be asked for.
  const overriding = engine === "postgres" && table === "audit_log" ? " OVERRIDING SYSTEM VALUE" : "";
  await tx.run(
    `INSERT INTO ${table} (${columns.join(", ")})${overriding} VALUES ${rows.map(() => tuple).join(", ")}`,
    rows.flatMap((row) => columns.map((column) => row[column] ?? null)),
  );
}
