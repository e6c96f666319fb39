// Configuration in one place: environment variables, each with a flag of the same meaning
// (flag wins). Nothing else reads process.env. Bad values stop start-up with
// `docverify: <SETTING>: <reason>` and exit status 2 (README "Configuration").
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute } from "node:path";

const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  dataDir: Type.String({ minLength: 1 }),
  /**
   * Empty: SQLite in dataDir, one serve process. postgres://…: a database several instances share.
   */
  databaseUrl: Type.String(),
  databasePoolSize: Type.Integer({ minimum: 1, maximum: 1000 }),
  databaseStatementTimeoutMs: Type.Integer({ minimum: 100 }),
  /** Empty: start an embedded sidecar. Otherwise host:port[,host:port…]. */
  sidecar: Type.Array(Type.String()),
  sidecarListen: Type.String({ minLength: 1 }),
  sidecarDevice: Type.Union([Type.Literal("auto"), Type.Literal("cpu"), Type.Literal("cuda")]),
  webhookRetryScheduleMs: Type.Array(Type.Integer({ minimum: 0 })),
  allowPrivateUrls: Type.Boolean(),
  pricePerDocument: Type.Number({ minimum: 0 }),
  retentionDays: Type.Integer({ minimum: 1 }),
  batchConcurrency: Type.Integer({ minimum: 1, maximum: 64 }),
  outboxPollMs: Type.Integer({ minimum: 10 }),
  /** How long claimed work stays with an instance that stops renewing it (one that died). */
  leaseMs: Type.Integer({ minimum: 1000 }),
  webhookTimeoutMs: Type.Integer({ minimum: 100 }),
  logLevel: Type.Union([Type.Literal("debug"), Type.Literal("info"), Type.Literal("warn"), Type.Literal("error")]),
  /**
   * PEM files: for `sidecar` its identity and the CA clients must chain to; for `serve` the
   * reverse.
   */
  sidecarTlsCa: Type.Optional(Type.String()),
  sidecarTlsCert: Type.Optional(Type.String()),
  sidecarTlsKey: Type.Optional(Type.String()),
  /** Name to verify in a sidecar's certificate (needed when sidecars are addressed by IP). */
  sidecarTlsServerName: Type.Optional(Type.String()),
  /** ONNX Runtime intra-op threads in the sidecar; absent = one per core. */
  sidecarThreads: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
  sidecarConcurrency: Type.Integer({ minimum: 1, maximum: 64 }),
  /** Recognition crops per model call; absent = the sidecar's default (16). */
  sidecarMaxBatch: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  /**
   * Folder holding libonnxruntime_providers_cuda.so and _shared.so, when the binary carries none.
   */
  sidecarCudaLibDir: Type.Optional(Type.String()),
  /** Worker threads for the structure and metadata inspection in the API process. */
  analysisWorkers: Type.Integer({ minimum: 1, maximum: 32 }),
  sidecarDeadlineMs: Type.Integer({ minimum: 1000 }),
  /** Synchronous verifies analysed at once; absent = DOCVERIFY_SIDECAR_CONCURRENCY per sidecar. */
  verifyConcurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024 })),
  /** Synchronous verifies that may wait for a turn; more get 503 at once. */
  verifyQueue: Type.Integer({ minimum: 0, maximum: 100_000 }),
  /** Longest a synchronous verify waits for a turn before it gets 503. */
  verifyQueueWaitMs: Type.Integer({ minimum: 1 }),
  /** Resident memory (bytes) no process of the service may pass: API and each sidecar alike. */
  memoryLimitBytes: Type.Integer({ minimum: 256 * 1024 * 1024 }),
  /**
   * Base64 AES-256 keys sealing callback secrets, the first current; empty: the data directory's
   * key file.
   */
  secretKeys: Type.Array(Type.String()),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    readonly reason: string,
  ) {
    super(`${setting}: ${reason}`);
    this.name = "ConfigError";
  }
}

type Parser<T> = (raw: string) => T;

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  fallback: string;
  parse: Parser<Config[K]>;
}

const integer =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`expected a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`must be between ${min} and ${max}`);
    return value;
  };

const boolean: Parser<boolean> = (raw) => {
  const value = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off", ""].includes(value)) return false;
  throw new Error(`expected true or false, got "${raw}"`);
};

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value)) throw new Error(`expected one of ${values.join(", ")}, got "${raw}"`);
    return value;
  };

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "1m,5m,30m" → [60000, 300000, 1800000]; also accepts ms, s and h. */
const parseDurationList: Parser<number[]> = (raw) =>
  raw.split(",").map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not a duration like 30s, 5m or 1h`);
    return Math.round(Number(match[1]) * DURATION_UNITS_MS[match[2]!]!);
  });

const hostPortList: Parser<string[]> = (raw) =>
  raw
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(item)) throw new Error(`"${item}" is not host:port`);
      return item;
    });

const hostPort: Parser<string> = (raw) => {
  const [item] = hostPortList(raw);
  if (!item) throw new Error("expected host:port");
  return item;
};

const decimal: Parser<number> = (raw) => {
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new Error(`expected a non-negative number, got "${raw}"`);
  return Number(raw);
};

const optional =
  <T>(parse: Parser<T>): Parser<T | undefined> =>
  (raw) =>
    raw.trim() === "" ? undefined : parse(raw);

const readableFile: Parser<string> = (raw) => {
  const path = raw.trim();
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new Error(`cannot read ${path}`);
  }
  return path;
};

const absoluteDirectory: Parser<string> = (raw) => {
  const path = raw.trim();
  if (!isAbsolute(path)) throw new Error(`expected an absolute path, got "${raw}"`);
  try {
    if (!statSync(path).isDirectory()) throw new Error();
  } catch {
    throw new Error(`${path} is not a folder`);
  }
  return path;
};

const singleDuration: Parser<number> = (raw) => {
  const [value, ...rest] = parseDurationList(raw);
  if (value === undefined || rest.length > 0) throw new Error(`expected one duration like 120s, got "${raw}"`);
  return value;
};

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** "1.5GB" → 1500000000; also kB, MB, KiB, MiB, GiB or plain bytes. */
const parseSize: Parser<number> = (raw) => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?\s*$/i.exec(raw);
  if (!match) throw new Error(`"${raw}" is not a size like 1.5GB or 1536MiB`);
  return Math.round(Number(match[1]) * SIZE_UNITS[(match[2] ?? "").toLowerCase()]!);
};

const sizeAtLeast =
  (min: number): Parser<number> =>
  (raw) => {
    const value = parseSize(raw);
    if (value < min) throw new Error(`must be at least ${Math.round(min / 1_048_576)} MiB`);
    return value;
  };

const databaseUrl: Parser<string> = (raw) => {
  const url = raw.trim();
  if (url !== "" && !/^postgres(ql)?:\/\//.test(url))
    throw new Error("expected postgres://… or postgresql://…, or nothing for SQLite in DOCVERIFY_DATA_DIR");
  return url;
};

const nonEmpty: Parser<string> = (raw) => {
  if (!raw.trim()) throw new Error("must not be empty");
  return raw.trim();
};

/** Comma-separated base64 keys of 32 bytes each (`openssl rand -base64 32`). */
const secretKeyList: Parser<string[]> = (raw) =>
  raw
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(item) || Buffer.from(item, "base64").length !== 32) {
        throw new Error(`key ${index + 1} is not 32 bytes in base64 (make one with \`openssl rand -base64 32\`)`);
      }
      return item;
    });

const SETTINGS = [
  { key: "port", env: "DOCVERIFY_PORT", fallback: "8080", parse: integer(0, 65535) },
  { key: "host", env: "DOCVERIFY_HOST", fallback: "0.0.0.0", parse: nonEmpty },
  { key: "dataDir", env: "DOCVERIFY_DATA_DIR", fallback: "./data", parse: nonEmpty },
  { key: "databaseUrl", env: "DOCVERIFY_DATABASE_URL", fallback: "", parse: databaseUrl },
  { key: "databasePoolSize", env: "DOCVERIFY_DATABASE_POOL_SIZE", fallback: "10", parse: integer(1, 1000) },
  {
    key: "databaseStatementTimeoutMs",
    env: "DOCVERIFY_DATABASE_STATEMENT_TIMEOUT",
    fallback: "30s",
    parse: singleDuration,
  },
  { key: "sidecar", env: "DOCVERIFY_SIDECAR", fallback: "", parse: hostPortList },
  { key: "sidecarListen", env: "DOCVERIFY_SIDECAR_LISTEN", fallback: "127.0.0.1:50051", parse: hostPort },
  { key: "sidecarDevice", env: "DOCVERIFY_SIDECAR_DEVICE", fallback: "auto", parse: oneOf("auto", "cpu", "cuda") },
  {
    key: "webhookRetryScheduleMs",
    env: "DOCVERIFY_WEBHOOK_RETRY_SCHEDULE",
    fallback: "1m,5m,30m",
    parse: parseDurationList,
  },
  { key: "allowPrivateUrls", env: "DOCVERIFY_ALLOW_PRIVATE_URLS", fallback: "false", parse: boolean },
  { key: "pricePerDocument", env: "DOCVERIFY_PRICE_PER_DOCUMENT", fallback: "0.10", parse: decimal },
  { key: "retentionDays", env: "DOCVERIFY_RETENTION_DAYS", fallback: "30", parse: integer(1, 36500) },
  { key: "batchConcurrency", env: "DOCVERIFY_BATCH_CONCURRENCY", fallback: "2", parse: integer(1, 64) },
  { key: "outboxPollMs", env: "DOCVERIFY_OUTBOX_POLL_MS", fallback: "500", parse: integer(10, 60_000) },
  { key: "leaseMs", env: "DOCVERIFY_LEASE", fallback: "30s", parse: singleDuration },
  { key: "webhookTimeoutMs", env: "DOCVERIFY_WEBHOOK_TIMEOUT_MS", fallback: "15000", parse: integer(100, 120_000) },
  { key: "logLevel", env: "DOCVERIFY_LOG_LEVEL", fallback: "info", parse: oneOf("debug", "info", "warn", "error") },
  { key: "sidecarTlsCa", env: "DOCVERIFY_SIDECAR_TLS_CA", fallback: "", parse: optional(readableFile) },
  { key: "sidecarTlsCert", env: "DOCVERIFY_SIDECAR_TLS_CERT", fallback: "", parse: optional(readableFile) },
  { key: "sidecarTlsKey", env: "DOCVERIFY_SIDECAR_TLS_KEY", fallback: "", parse: optional(readableFile) },
  { key: "sidecarTlsServerName", env: "DOCVERIFY_SIDECAR_TLS_SERVER_NAME", fallback: "", parse: optional(nonEmpty) },
  { key: "sidecarThreads", env: "DOCVERIFY_SIDECAR_THREADS", fallback: "", parse: optional(integer(1, 256)) },
  { key: "sidecarConcurrency", env: "DOCVERIFY_SIDECAR_CONCURRENCY", fallback: "4", parse: integer(1, 64) },
  { key: "sidecarMaxBatch", env: "DOCVERIFY_SIDECAR_MAX_BATCH", fallback: "", parse: optional(integer(1, 64)) },
  { key: "sidecarCudaLibDir", env: "DOCVERIFY_SIDECAR_CUDA_LIB_DIR", fallback: "", parse: optional(absoluteDirectory) },
  { key: "analysisWorkers", env: "DOCVERIFY_ANALYSIS_WORKERS", fallback: "2", parse: integer(1, 32) },
  { key: "sidecarDeadlineMs", env: "DOCVERIFY_SIDECAR_DEADLINE", fallback: "120s", parse: singleDuration },
  { key: "verifyConcurrency", env: "DOCVERIFY_VERIFY_CONCURRENCY", fallback: "", parse: optional(integer(1, 1024)) },
  { key: "verifyQueue", env: "DOCVERIFY_VERIFY_QUEUE", fallback: "32", parse: integer(0, 100_000) },
  { key: "verifyQueueWaitMs", env: "DOCVERIFY_VERIFY_QUEUE_WAIT", fallback: "20s", parse: singleDuration },
  { key: "memoryLimitBytes", env: "DOCVERIFY_MEMORY_LIMIT", fallback: "1.5GB", parse: sizeAtLeast(256 * 1024 * 1024) },
  { key: "secretKeys", env: "DOCVERIFY_SECRET_KEY", fallback: "", parse: secretKeyList },
] as const satisfies readonly Setting<keyof Config>[];

/** `DOCVERIFY_WEBHOOK_RETRY_SCHEDULE` ⇄ `--webhook-retry-schedule`. */
export const flagName = (env: string) =>
  `--${env
    .replace(/^DOCVERIFY_/, "")
    .toLowerCase()
    .replaceAll("_", "-")}`;

/** Splits `--name value` and `--name=value` flags from positional arguments. */
export function splitFlags(argv: string[]): { flags: Map<string, string>; positional: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) flags.set(arg, argv[++i]!);
    else flags.set(arg, "true");
  }
  return { flags, positional };
}

export function loadConfig(env: Record<string, string | undefined>, flags: Map<string, string> = new Map()): Config {
  const values: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    const raw = flags.get(flagName(setting.env)) ?? env[setting.env] ?? setting.fallback;
    try {
      values[setting.key] = setting.parse(raw);
    } catch (error) {
      throw new ConfigError(setting.env, (error as Error).message);
    }
  }
  const config = values as Config;
  if (Boolean(config.sidecarTlsCert) !== Boolean(config.sidecarTlsKey)) {
    throw new ConfigError(
      config.sidecarTlsCert ? "DOCVERIFY_SIDECAR_TLS_KEY" : "DOCVERIFY_SIDECAR_TLS_CERT",
      "a TLS certificate and its key go together",
    );
  }
  if (config.webhookRetryScheduleMs.length === 0)
    throw new ConfigError("DOCVERIFY_WEBHOOK_RETRY_SCHEDULE", "needs at least one delay");
  if (!Value.Check(ConfigSchema, config)) {
    const [first] = Value.Errors(ConfigSchema, config);
    throw new ConfigError(first?.path ?? "config", first?.message ?? "invalid");
  }
  return config;
}

/** Flags that `loadConfig` understands, for validating a command line. */
export const knownConfigFlags = (): string[] => SETTINGS.map((setting) => flagName(setting.env));
