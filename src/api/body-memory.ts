// Request bodies in flight count against the process's memory budget (DOCVERIFY_MEMORY_LIMIT)
// like the documents they carry: a body is held from before its first byte is read until its
// answer has been sent, so a burst of large uploads waits for room (or is refused with 503)
// instead of pushing the process past its limit before any document reserves anything.
import { AppError } from "../errors.ts";
import type { MemoryBudget } from "../limits/memory-budget.ts";
import { contextOf } from "./request-context.ts";

/**
 * What holding a body costs per byte: the bytes read, then what is parsed from them (the
 * JSON text and its base64 string, or the multipart file) and the document decoded from that.
 * Measured at 2.4 (base64 JSON) and 2.5 (multipart) bytes of RSS per body byte of a 4.4 MB
 * document, peak while held; rounded up.
 */
export const BODY_BYTES_PER_BYTE = 3;

/**
 * What a body of a route whose ceiling is `maxBytes` holds: by its declared length, or the
 * ceiling when it declares none (a chunked body is cut off there). Zero for a declared length
 * past the ceiling: readBody refuses that before reading a byte.
 */
function bodyMemoryBytes(request: Request, maxBytes: number): number {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (!Number.isFinite(declared) || declared < 0) return maxBytes * BODY_BYTES_PER_BYTE;
  return declared > maxBytes ? 0 : declared * BODY_BYTES_PER_BYTE;
}

/**
 * Holds the body's memory before it is read, waiting at most `maxWaitMs` for room (a client
 * that goes away stops the wait); the hold is kept on the request's context until the answer
 * is sent (releaseBodyMemory, from the app's after-response hook).
 */
export async function holdBodyMemory(
  memory: MemoryBudget,
  request: Request,
  maxBytes: number,
  maxWaitMs: number,
): Promise<void> {
  const context = contextOf(request);
  const bytes = bodyMemoryBytes(request, maxBytes);
  if (!context || context.bodyMemory || bytes === 0) return;
  const waited = new AbortController();
  const timer = setTimeout(
    () =>
      waited.abort(
        new AppError(
          "SERVICE_UNAVAILABLE",
          `The service is at capacity: no memory was free for the request body within ${maxWaitMs} ms`,
          { retryAfterSec: Math.max(1, Math.ceil(maxWaitMs / 1000)), retryable: true },
        ),
      ),
    maxWaitMs,
  );
  const gone = () =>
    waited.abort(new AppError("SERVICE_UNAVAILABLE", "The client went away", { retryAfterSec: 1, retryable: true }));
  request.signal.addEventListener("abort", gone, { once: true });
  try {
    context.bodyMemory = await memory.hold(bytes, "The request body", waited.signal);
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", gone);
  }
}

/** Gives the body's memory back once its answer is sent (idempotent). */
export function releaseBodyMemory(request: Request): void {
  contextOf(request)?.bodyMemory?.release();
}
