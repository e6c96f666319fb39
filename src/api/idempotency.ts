// Idempotency-Key on the endpoints that analyse, bill or enqueue: the first answer to a
// request is kept for 24 hours per API key and sent again, byte for byte, to a retry of the
// same request, which is then neither analysed, billed nor enqueued again.
import { createHash } from "node:crypto";
import { AppError, type ErrorCode } from "../errors.ts";
import { errorResponse } from "./http-errors.ts";
import { contextOf, keyOf } from "./request-context.ts";
import type { AppDeps } from "./deps.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
const REPLAYED_HEADER = "idempotent-replayed";
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** Longer than any request may take (a document URL fetch plus a sidecar deadline). */
const LOCK_MS = 10 * 60_000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * Errors that judge the request itself: sent again the same, it would fail the same, so the
 * answer is kept. Others (an unreachable document URL, a quota, an outage) may pass later,
 * so the key is freed for a retry.
 */
const KEPT_ERRORS = new Set<ErrorCode>(["VALIDATION_ERROR", "UNSUPPORTED_FORMAT", "FILE_TOO_LARGE"]);

export interface Answer<T> {
  status: number;
  body: T;
}

/** Returns the request's Idempotency-Key, null without one; a malformed one is a 400. */
function idempotencyKeyOf(request: Request): string | null {
  const value = request.headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  if (!KEY_PATTERN.test(value)) {
    const reason = "must be 1 to 255 printable ASCII characters";
    throw new AppError("VALIDATION_ERROR", `Idempotency-Key ${reason}`, {
      details: [{ path: "header/Idempotency-Key", message: reason }],
    });
  }
  return value;
}

const jsonResponse = (status: number, body: Uint8Array, headers: Record<string, string> = {}): Response =>
  new Response(body, { status, headers: { "content-type": "application/json", ...headers } });

/**
 * Runs `work` once per (API key, Idempotency-Key, request); without the header it simply
 * runs. The answer is serialised here, with or without a key, so a replay carries exactly
 * the bytes sent first. `set.status` follows the answer for the request metrics.
 */
export async function runIdempotently<T>(
  deps: AppDeps,
  request: Request,
  set: { status?: number | string },
  work: () => Promise<Answer<T>>,
): Promise<Response> {
  const idempotencyKey = idempotencyKeyOf(request);
  const context = contextOf(request);
  const requestId = context?.requestId ?? "req_unknown";
  const respond = (status: number, body: Uint8Array, headers: Record<string, string> = {}) => {
    set.status = status;
    return jsonResponse(status, body, headers);
  };
  if (idempotencyKey === null) {
    const answer = await work();
    return respond(answer.status, Buffer.from(JSON.stringify(answer.body)));
  }
  const keyId = keyOf(request).id;
  // The same key on another endpoint is another request.
  const requestHash = createHash("sha256")
    .update(`${request.method} ${new URL(request.url).pathname}\n`)
    .update(context?.bodyDigest ?? "")
    .digest("hex");
  const now = deps.clock.now();
  const claim = await deps.store.idempotency.claim({
    keyId,
    idempotencyKey,
    requestHash,
    now,
    ttlMs: IDEMPOTENCY_TTL_MS,
    lockMs: LOCK_MS,
  });
  switch (claim.kind) {
    case "replay":
      return respond(claim.answer.status, claim.answer.body, { [REPLAYED_HEADER]: "true" });
    case "mismatch":
      throw new AppError(
        "IDEMPOTENCY_KEY_REUSED",
        "This Idempotency-Key was used with a different request; use a new key for a new request",
      );
    case "in_progress":
      throw new AppError(
        "IDEMPOTENCY_KEY_IN_USE",
        "A request with this Idempotency-Key is still being processed; retry after it finishes",
        {
          retryAfterSec: 1,
        },
      );
    case "claimed":
      break;
  }

  let answer: { status: number; body: Uint8Array };
  try {
    const done = await work();
    answer = { status: done.status, body: Buffer.from(JSON.stringify(done.body)) };
  } catch (error) {
    if (!(error instanceof AppError) || !KEPT_ERRORS.has(error.code)) {
      await deps.store.idempotency.abandon(keyId, idempotencyKey);
      throw error;
    }
    const response = errorResponse(error, requestId);
    answer = { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
  }
  await deps.store.idempotency.complete(keyId, idempotencyKey, answer);
  return respond(answer.status, answer.body);
}
