// Command dispatch. Exit status: 0 success, 1 failure of the work, 2 bad usage or
// configuration (with one stderr line `docverify: <SETTING>: <reason>`).
import { ConfigError, loadConfig, splitFlags } from "../config.ts";
import { isAppError } from "../errors.ts";
import { UsageError, createKey, listKeys, revokeKey, rotateKey } from "./keys.ts";
import { auditLines } from "./audit.ts";

const USAGE = `usage: docverify <command>
  serve                         start the API (and an embedded sidecar unless --sidecar is set)
  migrate                       bring the database's schema up to this release's (serve does it too)
  db copy --from sqlite:DIR|postgres://… --to postgres://…|sqlite:DIR   every row into an empty database
  sidecar                       start the inference sidecar
  keys create --mode test|live [--plan trial|paid] [--trial-quota N] [--rate-limit N/s] [--monthly-cap AMOUNT]
  keys list                     id, mode, plan, limits, created, last use, old key's grace, revoked
  keys rotate ID [--grace 24h]  new key for the same account; the old one works until the grace ends
  keys revoke ID|KEY            a rotated-out KEY only loses its grace; otherwise the key is revoked
  audit [--since DATE] [--key ID] [--limit N]   the audit log as JSON lines
  secrets rotate                re-seal stored callback secrets under a new key (service stopped)
  analyze FILE [--json]         analyse a document locally and print the report`;

export async function run(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const { flags, positional } = splitFlags(argv);
  const [command, sub, arg] = positional;
  try {
    if (!command || flags.has("--help") || command === "help") {
      console.log(USAGE);
      return command ? 0 : 2;
    }
    const config = loadConfig(env, flags);
    switch (command) {
      case "serve": {
        const { startService } = await import("./serve.ts");
        const service = await startService(config);
        const local = `http://localhost:${service.port}`;
        console.log(`docverify is listening on port ${service.port}`);
        console.log(`  API docs (Swagger UI): ${local}/docs`);
        const keysCommand = Bun.isStandaloneExecutable
          ? "docverify keys create --mode test"
          : "npm run docverify -- keys create --mode test";
        console.log(`  get a test key:        ${keysCommand}`);
        await new Promise<void>((resolve) => {
          const shutdown = () => void service.stop().then(resolve);
          process.once("SIGTERM", shutdown);
          process.once("SIGINT", shutdown);
        });
        return 0;
      }
      case "migrate": {
        const { migrate } = await import("./migrate.ts");
        console.log(await migrate(config));
        return 0;
      }
      case "db": {
        if (sub !== "copy")
          throw new UsageError("usage: docverify db copy --from sqlite:DIR|postgres://… --to postgres://…|sqlite:DIR");
        const { copyCommand } = await import("./db-copy.ts");
        console.log(await copyCommand(config, flags));
        return 0;
      }
      case "sidecar": {
        const { runSidecarCommand } = await import("../../sidecar/main.ts");
        return await runSidecarCommand(config);
      }
      case "keys":
        if (sub === "create") console.log(await createKey(config, flags));
        else if (sub === "list") console.log(await listKeys(config));
        else if (sub === "rotate") console.log((await rotateKey(config, arg, flags)).join("\n"));
        else if (sub === "revoke") console.log(await revokeKey(config, arg));
        else throw new UsageError("usage: docverify keys create|list|rotate|revoke");
        return 0;
      case "audit":
        for (const line of await auditLines(config, flags)) console.log(line);
        return 0;
      case "secrets": {
        if (sub !== "rotate") throw new UsageError("usage: docverify secrets rotate");
        const { rotateSecrets } = await import("./secrets.ts");
        console.log(await rotateSecrets(config));
        return 0;
      }
      case "analyze": {
        if (!sub) throw new UsageError("usage: docverify analyze FILE [--json]");
        const { analyzeFile } = await import("./analyze.ts");
        console.log(await analyzeFile(config, sub, flags.has("--json")));
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`docverify: ${error.setting}: ${error.reason}`);
      return 2;
    }
    if (error instanceof UsageError) {
      console.error(`docverify: ${error.message}`);
      return 2;
    }
    if (isAppError(error)) {
      console.error(`docverify: ${error.code}: ${error.message}`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException)?.code === "ENOENT") {
      console.error(`docverify: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}
