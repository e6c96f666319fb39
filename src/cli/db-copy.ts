// `docverify db copy --from sqlite:DIR --to postgres://…`: moves a deployment's data from one
// database to another, empty one (either way round), with every instance stopped. Callback
// secrets are sealed again on the way under DOCVERIFY_SECRET_KEY's first key, which every
// instance on the target holds; the source's secret.key (if any) only opens them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type Config } from "../config.ts";
import { openDatabase } from "../store/index.ts";
import { copyDatabase, COPIED_TABLES, CopyRefused } from "../store/copy.ts";
import { lockDataDir } from "../store/data-dir-lock.ts";
import type { Database, SqlValue } from "../store/database.ts";
import { KEY_FILE_NAME, Keyring, readKeyFile, sealedKeyId } from "../keys/secret-keyring.ts";
import { UsageError } from "./keys.ts";

type End = { kind: "sqlite"; dataDir: string } | { kind: "postgres"; url: string };

const ENDPOINT_USAGE = "sqlite:DIR (a data directory) or postgres://…";

function parseEnd(flag: string, raw: string | undefined): End {
  if (raw === undefined || raw === "true")
    throw new UsageError(`usage: docverify db copy --from ${ENDPOINT_USAGE} --to ${ENDPOINT_USAGE}`);
  if (raw.startsWith("sqlite:") && raw.length > "sqlite:".length)
    return { kind: "sqlite", dataDir: raw.slice("sqlite:".length) };
  if (/^postgres(ql)?:\/\//.test(raw)) return { kind: "postgres", url: raw };
  throw new UsageError(`${flag}: expected ${ENDPOINT_USAGE}`);
}

/** Where an end is, without the password a URL may carry. */
function describe(end: End): string {
  if (end.kind === "sqlite") return `sqlite:${end.dataDir}`;
  const url = new URL(end.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

const open = (end: End, config: Config): Promise<Database> =>
  openDatabase({
    dataDir: end.kind === "sqlite" ? end.dataDir : config.dataDir,
    databaseUrl: end.kind === "postgres" ? end.url : "",
    databasePoolSize: config.databasePoolSize,
    databaseStatementTimeoutMs: config.databaseStatementTimeoutMs,
  });

const decode = (keys: string[]) => keys.map((key) => new Uint8Array(Buffer.from(key, "base64")));

export async function copyCommand(config: Config, flags: Map<string, string>): Promise<string> {
  const from = parseEnd("--from", flags.get("--from"));
  const to = parseEnd("--to", flags.get("--to"));
  if (describe(from) === describe(to)) throw new UsageError("--from and --to name the same database");
  if (config.secretKeys.length === 0) {
    throw new ConfigError(
      "DOCVERIFY_SECRET_KEY",
      "is required by db copy: callback secrets are sealed again under its first key, which every instance on the target must hold",
    );
  }
  const target = new Keyring(decode(config.secretKeys));
  // The source's secrets open with the configured keys or, for a SQLite deployment that never
  // set DOCVERIFY_SECRET_KEY, its data directory's key file.
  const sourceKeyFile =
    from.kind === "sqlite" && existsSync(join(from.dataDir, KEY_FILE_NAME)) ? readKeyFile(from.dataDir) : [];
  const opener = new Keyring([...decode(config.secretKeys), ...sourceKeyFile]);
  const reseal = (row: Record<string, SqlValue>) => {
    const id = String(row.id);
    const sealed = row.callback_secret_sealed as string | null;
    if (sealed !== null && sealedKeyId(sealed) === target.currentId) return row;
    let plaintext: string;
    try {
      plaintext = sealed === null ? String(row.callback_secret) : opener.open(sealed, id);
    } catch (error) {
      throw new CopyRefused(
        `batch ${id}'s callback secret: ${(error as Error).message} (neither DOCVERIFY_SECRET_KEY nor the source's ${KEY_FILE_NAME})`,
      );
    }
    return { ...row, callback_secret: "", callback_secret_sealed: target.seal(plaintext, id) };
  };

  // A serve process still running on a SQLite end would go on writing what is not copied.
  const unlocks = [from, to].flatMap((end) => (end.kind === "sqlite" ? [lockDataDir(end.dataDir)] : []));
  try {
    const source = await open(from, config);
    try {
      const destination = await open(to, config);
      try {
        const counts = await copyDatabase(source, destination, {
          transform: (table, row) => (table === "batches" ? reseal(row) : row),
        });
        const width = Math.max(...COPIED_TABLES.map((table) => table.name.length));
        return [
          `copied ${describe(from)} to ${describe(to)} (${destination.engine} schema version ${destination.schema.current})`,
          ...COPIED_TABLES.map(({ name }) => `  ${name.padEnd(width)}  ${counts[name]}`),
          `callback secrets sealed under key ${target.currentId}`,
        ].join("\n");
      } finally {
        await destination.close();
      }
    } finally {
      await source.close();
    }
  } catch (error) {
    if (error instanceof CopyRefused) throw new UsageError(`${error.message}; nothing was copied`);
    throw error;
  } finally {
    for (const unlock of unlocks) unlock();
  }
}
