import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "bun:test";
import {
  KEY_FILE_NAME,
  Keyring,
  keyIdOf,
  loadKeys,
  newKey,
  readKeyFile,
  sealedKeyId,
} from "../../../src/keys/secret-keyring.ts";
import { ConfigError } from "../../../src/config.ts";
import { newDataDir } from "../../helpers/service.ts";

describe("the keyring", () => {
  const key = newKey();
  const keyring = new Keyring([key]);

  test("seals with AES-256-GCM so that only the same key and context open it", () => {
    const sealed = keyring.seal("a-callback-secret-of-some-length", "batch-1");
    expect(sealed).not.toContain("a-callback-secret");
    expect(sealed).toMatch(/^v1:[0-9a-f]{16}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealedKeyId(sealed)).toBe(keyIdOf(key));
    expect(keyring.open(sealed, "batch-1")).toBe("a-callback-secret-of-some-length");
    // A fresh IV every time: the same secret never seals to the same text.
    expect(keyring.seal("a-callback-secret-of-some-length", "batch-1")).not.toBe(sealed);
    // Bound to its row: moved to another batch it does not open.
    expect(() => keyring.open(sealed, "batch-2")).toThrow();
    expect(() => new Keyring([newKey()]).open(sealed, "batch-1")).toThrow("does not hold");
    const parts = sealed.split(":");
    const tampered = Buffer.from(parts[3]!, "base64");
    tampered[0]! ^= 1;
    expect(() => keyring.open([...parts.slice(0, 3), tampered.toString("base64")].join(":"), "batch-1")).toThrow();
  });

  test("opens with every key it holds and seals with the first", () => {
    const fresh = newKey();
    const rotated = new Keyring([fresh, key]);
    const old = keyring.seal("secret", "b");
    expect(rotated.open(old, "b")).toBe("secret");
    expect(sealedKeyId(rotated.seal("secret", "b"))).toBe(keyIdOf(fresh));
    expect(rotated.currentId).toBe(keyIdOf(fresh));
  });
});

describe("the key file", () => {
  test("is made on first use with mode 0600 and read again after", () => {
    const dataDir = newDataDir();
    const first = loadKeys(dataDir, undefined);
    expect(first.kind).toBe("file");
    expect(statSync(join(dataDir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    const second = loadKeys(dataDir, undefined);
    expect(keyIdOf(second.keys[0]!)).toBe(keyIdOf(first.keys[0]!));
    expect(readFileSync(join(dataDir, KEY_FILE_NAME), "utf8")).toContain(
      Buffer.from(first.keys[0]!).toString("base64"),
    );
  });

  test("is not made when DOCVERIFY_SECRET_KEY gives the keys", () => {
    const dataDir = newDataDir();
    const key = newKey();
    expect(loadKeys(dataDir, [key])).toEqual({ kind: "environment", keys: [key] });
    expect(existsSync(join(dataDir, KEY_FILE_NAME))).toBe(false);
  });

  test("is refused when others may read it", () => {
    const dataDir = newDataDir();
    loadKeys(dataDir, undefined);
    chmodSync(join(dataDir, KEY_FILE_NAME), 0o644);
    expect(() => readKeyFile(dataDir)).toThrow(ConfigError);
    expect(() => readKeyFile(dataDir)).toThrow("chmod 600");
  });
});
