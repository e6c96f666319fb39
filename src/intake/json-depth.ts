// A linear scan of a JSON text's nesting before anything parses it: JSON.parse and the schema
// checks after it recurse once per level, and a body of a few hundred kilobytes nested
// 100,000 levels deep overflows the stack. Strings are skipped (brackets inside them do not
// nest), so the scan agrees with JSON.parse on every valid text.

import { AppError } from "../errors.ts";

/** Deeper than any request body the API defines (they nest three levels at most). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * The deepest nesting of arrays and objects in `bytes` (UTF-8 JSON text), stopping once past
 * `limit`.
 */
export function jsonDepth(bytes: Uint8Array, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (OPENERS.has(byte)) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (CLOSERS.has(byte) && depth > 0) depth--;
  }
  return deepest;
}

export function assertJsonDepth(bytes: Uint8Array, limit = MAX_JSON_DEPTH): void {
  if (jsonDepth(bytes, limit) > limit)
    throw new AppError("VALIDATION_ERROR", `The request body nests arrays or objects deeper than ${limit} levels`);
}
