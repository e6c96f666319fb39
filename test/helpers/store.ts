// Direct reads of a store's SQLite file, for what no store method shows (a row's raw bytes,
// the schema version): a second connection, as an operator's sqlite3 shell would be.
import { Database } from "bun:sqlite";
import { join } from "node:path";

export function sqliteFileOf(dataDir: string): Database {
  return new Database(join(dataDir, "docverify.db"), { readonly: true, strict: true });
}
