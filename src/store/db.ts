// The embedded store: one SQLite file in WAL mode. Migrations are plain SQL applied in
// order and recorded in user_version, so an older data directory upgrades on start.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations";

export type Db = Database;

export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, "docverify.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  // Deleted and overwritten content is zeroed, so a secret sealed in place leaves no plaintext behind.
  db.exec("PRAGMA secure_delete = ON");
  migrate(db);
  return db;
}

function migrate(db: Db) {
  const { user_version: current } = db.query("PRAGMA user_version").get() as { user_version: number };
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }).immediate();
  }
}
