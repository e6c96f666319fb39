// The one mapping from what a sidecar call can fail with to the API's error codes. Every
// adapter error says whether a retry can help: a sidecar that is down, overloaded or too slow
// is retryable (a single verify answers 503 with Retry-After, batch documents wait); a
// document the sidecar refuses is the document's fault and is not.
import { type ServiceError, status } from "@grpc/grpc-js";
import { AppError } from "../errors.ts";

/** Seconds a client is told to wait when no sidecar could answer. */
export const DEFAULT_RETRY_AFTER_SEC = 5;

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === "number" && "details" in error;
}

export function unavailable(message: string, retryAfterSec = DEFAULT_RETRY_AFTER_SEC, cause?: unknown): AppError {
  return new AppError("SERVICE_UNAVAILABLE", message, { retryable: true, retryAfterSec, cause });
}

export function sidecarErrorToAppError(error: unknown, retryAfterSec = DEFAULT_RETRY_AFTER_SEC): AppError {
  if (error instanceof AppError) return error;
  if (!isServiceError(error)) return new AppError("INTERNAL_ERROR", "the document analysis failed", { cause: error });
  // The sidecar's details name limits and formats only (never content), so they are safe to show.
  const details = error.details || status[error.code];
  switch (error.code) {
    case status.INVALID_ARGUMENT:
    case status.OUT_OF_RANGE:
    case status.FAILED_PRECONDITION:
      return new AppError("UNSUPPORTED_FORMAT", details, { cause: error });
    case status.RESOURCE_EXHAUSTED:
      return new AppError("FILE_TOO_LARGE", details, { cause: error });
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
    case status.CANCELLED:
    case status.ABORTED:
    // A sidecar of another contract version or with a refused certificate is a deployment
    // fault the operator fixes; until then documents wait rather than fail.
    case status.UNIMPLEMENTED:
    case status.UNAUTHENTICATED:
    case status.PERMISSION_DENIED:
      return unavailable(`the analysis service is unavailable (${status[error.code]})`, retryAfterSec, error);
    default:
      return new AppError("INTERNAL_ERROR", "the document analysis failed", { cause: error });
  }
}

/**
 * Whether the same call may go to another sidecar at once (analysis is stateless, so repeating it
 * is safe).
 */
export function shouldTryAnotherSidecar(error: unknown): boolean {
  return (
    isServiceError(error) &&
    (error.code === status.UNAVAILABLE || error.code === status.UNIMPLEMENTED || error.code === status.UNAUTHENTICATED)
  );
}
