// SQLite's migrations and PostgreSQL's are two lists: this keeps them describing one schema
// (tables, columns, their types, nullability and primary keys), and checks that instances
// starting together on an empty PostgreSQL database migrate it once between them.
import { expect, test } from "bun:test";
import { openStore } from "../../../src/store/index.ts";
import { newDataDir } from "../../helpers/service.ts";
import { openTestStore } from "../../helpers/store.ts";
import { newDatabaseUrl } from "../../helpers/postgres.ts";

interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}

/** SQLite's storage classes and the PostgreSQL types that hold the same values. */
const SAME_TYPE: Record<string, string> = { INTEGER: "bigint", TEXT: "text", BLOB: "bytea", REAL: "double precision" };

const sorted = (columns: Column[]) =>
  columns.sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));

test("SQLite and PostgreSQL migrate to the same tables and columns", async () => {
  const sqlite = await openTestStore("sqlite");
  const postgres = await openTestStore("postgres");
  try {
    const sqliteColumns = await sqlite.read<{
      table_name: string;
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }>(
      `SELECT m.name AS table_name, c.name, c.type, c."notnull", c.pk FROM sqlite_master m, pragma_table_info(m.name) c
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
    );
    const postgresColumns = await postgres.read<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      pk: boolean;
    }>(
      `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
         EXISTS (SELECT 1 FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k
                 ON k.constraint_name = t.constraint_name AND k.table_name = t.table_name
                 WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_name = c.table_name AND k.column_name = c.column_name) AS pk
       FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name <> 'schema_migrations'`,
    );
    const fromSqlite = sqliteColumns.map((c) => ({
      table: c.table_name,
      column: c.name,
      type: SAME_TYPE[c.type] ?? c.type,
      // A primary key column is NOT NULL in PostgreSQL whether or not it says so.
      notNull: c.notnull === 1 || c.pk > 0,
      primaryKey: c.pk > 0,
    }));
    const fromPostgres = postgresColumns.map((c) => ({
      table: c.table_name,
      column: c.column_name,
      type: c.data_type,
      notNull: c.is_nullable === "NO",
      primaryKey: c.pk,
    }));
    expect(sorted(fromPostgres)).toEqual(sorted(fromSqlite));
  } finally {
    await sqlite.close();
    await postgres.close();
  }
});

test("instances starting at once on an empty PostgreSQL database migrate it once", async () => {
  const databaseUrl = await newDatabaseUrl();
  const stores = await Promise.all(Array.from({ length: 3 }, () => openStore({ dataDir: newDataDir(), databaseUrl })));
  try {
    for (const store of stores) expect(await store.keys.list(new Date().toISOString())).toEqual([]);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
});
