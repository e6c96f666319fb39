// API key material. Keys carry 256 random bits, so a single SHA-256 is enough to store
// them (no salt or slow hash needed: there is nothing to brute-force), and lookups by
// hash reveal nothing through timing about the key itself.
import { createHash, randomBytes } from "node:crypto";

export type KeyMode = "test" | "live";

const KEY_PREFIX: Record<KeyMode, string> = { test: "svc_test_", live: "svc_live_" };

const KEY_PATTERN = /^svc_(test|live)_[A-Za-z0-9_-]{43}$/;

export function generateKey(mode: KeyMode): string {
  return KEY_PREFIX[mode] + randomBytes(32).toString("base64url");
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A cheap shape check so malformed bearer tokens never reach the store. */
export const looksLikeKey = (value: string): boolean => KEY_PATTERN.test(value);

export const newKeyId = (): string => `key_${randomBytes(8).toString("hex")}`;
