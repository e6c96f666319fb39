// Keys that seal callback secrets at rest (AES-256-GCM). The first key seals; every key
// opens, so a rotation can re-seal row by row while old ciphertexts stay readable. Keys come
// from DOCVERIFY_SECRET_KEY (comma-separated base64, first is current) or, without it, from
// a key file in the data directory created with mode 0600 on first use.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../config.ts";

export const KEY_FILE_NAME = "secret.key";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = "v1";
const KEY_FILE_HEADER =
  "# docverify: keys sealing callback secrets at rest. The first seals, all open. Keep this file secret (mode 0600).\n";

/** A short public name for a key, stored beside each ciphertext so the right key opens it. */
export const keyIdOf = (key: Uint8Array): string =>
  createHash("sha256").update("docverify secret key id\n").update(key).digest("hex").slice(0, 16);

function decodeKey(raw: string, origin: string): Uint8Array {
  const trimmed = raw.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new Error(`${origin}: expected ${KEY_BYTES} bytes in base64 (e.g. from \`openssl rand -base64 32\`)`);
  }
  return new Uint8Array(key);
}

export class Keyring {
  private readonly byId: Map<string, Uint8Array>;
  readonly currentId: string;

  constructor(keys: Uint8Array[]) {
    if (keys.length === 0) throw new Error("a keyring needs at least one key");
    this.byId = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.currentId = keyIdOf(keys[0]!);
  }

  has(keyId: string): boolean {
    return this.byId.has(keyId);
  }

  /**
   * `v1:<key id>:<base64 iv>:<base64 ciphertext+tag>`; `context` (e.g. the batch id) is bound as
   * associated data.
   */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.byId.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return [FORMAT, this.currentId, iv.toString("base64"), sealed.toString("base64")].join(":");
  }

  open(sealed: string, context: string): string {
    const [format, keyId, iv, data] = sealed.split(":");
    if (format !== FORMAT || !keyId || !iv || !data) throw new Error("not a sealed secret");
    const key = this.byId.get(keyId);
    if (!key) throw new Error(`sealed under key ${keyId}, which this keyring does not hold`);
    const bytes = Buffer.from(data, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  }
}

/** The key id a sealed secret names, without opening it. */
export const sealedKeyId = (sealed: string): string | null =>
  sealed.startsWith(`${FORMAT}:`) ? (sealed.split(":")[1] ?? null) : null;

export const newKey = (): Uint8Array => new Uint8Array(randomBytes(KEY_BYTES));

function writeTemporary(path: string, keys: Uint8Array[]): string {
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, `${KEY_FILE_HEADER + keys.map((key) => Buffer.from(key).toString("base64")).join("\n")}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temporary;
}

/** Replaces the key file atomically (a new file renamed over the old), never readable by others. */
export function writeKeyFile(dataDir: string, keys: Uint8Array[]): void {
  const path = join(dataDir, KEY_FILE_NAME);
  renameSync(writeTemporary(path, keys), path);
}

/**
 * Creates the key file unless one exists: a link fails rather than replace a key another process
 * made.
 */
function createKeyFile(dataDir: string): void {
  const path = join(dataDir, KEY_FILE_NAME);
  const temporary = writeTemporary(path, [newKey()]);
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

export function readKeyFile(dataDir: string): Uint8Array[] {
  const path = join(dataDir, KEY_FILE_NAME);
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new ConfigError(
      "DOCVERIFY_SECRET_KEY",
      `${path} is readable by others (mode ${mode.toString(8)}); run chmod 600 on it`,
    );
  }
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  try {
    const keys = lines.map((line, index) => decodeKey(line, `${path} line ${index + 1}`));
    if (keys.length === 0) throw new Error(`${path} holds no key`);
    return keys;
  } catch (error) {
    throw new ConfigError("DOCVERIFY_SECRET_KEY", (error as Error).message);
  }
}

export interface KeySource {
  kind: "environment" | "file";
  keys: Uint8Array[];
}

/** DOCVERIFY_SECRET_KEY when set; otherwise the data directory's key file, made on first use. */
export function loadKeys(dataDir: string, configured: Uint8Array[] | undefined): KeySource {
  if (configured && configured.length > 0) return { kind: "environment", keys: configured };
  if (!existsSync(join(dataDir, KEY_FILE_NAME))) createKeyFile(dataDir);
  return { kind: "file", keys: readKeyFile(dataDir) };
}
