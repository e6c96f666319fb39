import { AppError } from "../errors";
import type { KeyStore, ApiKeyRecord } from "../store/keys";
import { hashKey, looksLikeKey } from "./secret";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Missing, malformed, unknown and revoked keys all look the same to the caller. */
export function authenticate(authorization: string | null, keys: KeyStore): ApiKeyRecord {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!token) throw new AppError("UNAUTHORIZED", "Missing API key: send Authorization: Bearer <API_KEY>");
  const record = looksLikeKey(token) ? keys.findActiveByHash(hashKey(token)) : null;
  if (!record) throw new AppError("UNAUTHORIZED", "Invalid API key");
  return record;
}
