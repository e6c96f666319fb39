// One `serve` process owns a SQLite data directory: SQLite is one file with one writer, and
// serve frees unfinished idempotency keys at start-up, which is only safe when no other
// process holds any. A PostgreSQL store is shared and takes no lock.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config.ts";

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Locks the data directory when the store is SQLite in it; returns the unlock. */
export function lockDataDir(dataDir: string, databaseUrl = ""): () => void {
  if (databaseUrl !== "") return () => {};
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "serve.pid");
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new ConfigError("DOCVERIFY_DATA_DIR", `${dataDir} is in use by another docverify serve (pid ${pid})`);
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}
