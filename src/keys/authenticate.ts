import { AppError } from "../errors.ts";
import type { KeyStore, ApiKeyRecord } from "../store/keys.ts";
import { hashKey, looksLikeKey } from "./secret.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export type RefusalReason = "missing" | "malformed" | "unknown" | "revoked" | "expired";

/**
 * Why a key was refused, for the audit log only: it rides as the AppError's cause, which
 * never reaches the client, so every refusal looks the same from outside.
 */
export class KeyRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly keyId: string | null,
    /**
     * The first 16 hex digits of the presented key's SHA-256, to tie refusals together without the
     * key.
     */
    readonly tokenHash: string | null,
  ) {
    super(`API key refused: ${reason}`);
    this.name = "KeyRefusal";
  }
}

export interface Authenticated {
  record: ApiKeyRecord;
  keyHash: string;
  /** When this secret was last recorded as used (at most once a minute). */
  lastUsedAt: string | null;
}

/** Missing, malformed, unknown, revoked and expired keys all look the same to the caller. */
export async function authenticate(
  authorization: string | null,
  keys: KeyStore,
  nowMs: number,
): Promise<Authenticated> {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!token)
    throw new AppError("UNAUTHORIZED", "Missing API key: send Authorization: Bearer <API_KEY>", {
      cause: new KeyRefusal("missing", null, null),
    });
  if (!looksLikeKey(token))
    throw new AppError("UNAUTHORIZED", "Invalid API key", { cause: new KeyRefusal("malformed", null, null) });
  const keyHash = hashKey(token);
  const lookup = await keys.findByHash(keyHash, new Date(nowMs).toISOString());
  if (!lookup.ok)
    throw new AppError("UNAUTHORIZED", "Invalid API key", {
      cause: new KeyRefusal(lookup.reason, lookup.keyId, keyHash.slice(0, 16)),
    });
  return { record: lookup.record, keyHash, lastUsedAt: lookup.lastUsedAt };
}
