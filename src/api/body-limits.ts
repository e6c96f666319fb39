// The largest request body each route reads, in bytes. Bun's own ceiling
// (maxRequestBodySize, serve.ts) is set far above all of them so that its bare 413 never
// answers: ours do, in the error envelope, as 422 FILE_TOO_LARGE.
import { LIMITS } from "../intake/document.ts";

export const BODY_LIMITS = {
  // A base64 JSON body may be 4/3 of the decoded limit plus a data-URL prefix and JSON
  // framing; multipart adds boundaries and part headers. Anything past that is too large.
  verifyJson: Math.ceil((LIMITS.uploadBytes * 4) / 3) + 64 * 1024,
  verifyMultipart: LIMITS.uploadBytes + 64 * 1024,
  // "Total request body under 4.5 MB": a body of exactly 4,500,000 bytes is refused.
  batch: LIMITS.batchBodyBytes - 1,
} as const;

/** No route reads more: a Content-Length past it is refused before any byte is read. */
export const LARGEST_BODY = Math.max(...Object.values(BODY_LIMITS));

/** What the HTTP server itself accepts; past it Bun answers a bare 413 that we cannot shape. */
export const SERVER_BODY_CEILING = Number.MAX_SAFE_INTEGER;
