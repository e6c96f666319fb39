// The single place where error codes become HTTP: status, envelope and headers.
import { AppError, type ErrorCode } from "../errors.ts";
import type { ErrorBody } from "./schemas/error.ts";
import type { Logger } from "../log.ts";

export const codeToStatus: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  TRIAL_EXHAUSTED: 402,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_FORMAT: 422,
  FILE_TOO_LARGE: 422,
  FETCH_FAILED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RATE_LIMITED: 429,
  CAP_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export function errorResponse(error: AppError, requestId: string, extraHeaders: Record<string, string> = {}): Response {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      requestId,
    },
  };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-request-id": requestId,
    ...extraHeaders,
  };
  if (error.retryAfterSec !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfterSec)));
  if (error.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="docverify"';
  return new Response(JSON.stringify(body), { status: codeToStatus[error.code], headers });
}

interface ValidationIssue {
  path: string;
  message: string;
}

/** Elysia's own validation shape never leaks: reduce it to path + message pairs. */
function validationIssues(error: unknown): ValidationIssue[] {
  const all = (error as { all?: { path?: string; message?: string; summary?: string }[] }).all;
  if (!Array.isArray(all)) return [];
  return all
    .slice(0, 10)
    .map((issue) => ({ path: issue.path || "/", message: issue.summary ?? issue.message ?? "invalid" }));
}

/** Turns whatever a handler threw into an AppError the client may see. */
export function toAppError(code: string | number, error: unknown, log: Logger, requestId: string): AppError {
  if (error instanceof AppError) return error;
  // Elysia wraps whatever a parse hook throws; our body reader throws AppErrors on purpose.
  if (code === "PARSE" && (error as Error)?.cause instanceof AppError) return (error as Error).cause as AppError;
  switch (code) {
    case "VALIDATION": {
      const details = validationIssues(error);
      const first = details[0];
      return new AppError(
        "VALIDATION_ERROR",
        first ? `Invalid request: ${first.path} ${first.message}` : "Invalid request body",
        { details },
      );
    }
    case "PARSE":
      return new AppError("VALIDATION_ERROR", "The request body could not be parsed");
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", "No such resource");
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return new AppError("VALIDATION_ERROR", "Invalid request");
    default:
      log.error("unhandled error", {
        requestId,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      return new AppError("INTERNAL_ERROR", "Internal error");
  }
}
