// The one closed set of error codes (the API contract's section 7 plus the service's own), at the
// bottom of the tree so intake, analysis, store and webhooks can raise them without
// importing the HTTP layer. The HTTP layer owns the mapping to status codes.

export const ERROR_CODES = [
  "VALIDATION_ERROR",
  "UNAUTHORIZED",
  "TRIAL_EXHAUSTED",
  "UNSUPPORTED_FORMAT",
  "FILE_TOO_LARGE",
  "FETCH_FAILED",
  "RATE_LIMITED",
  "CAP_EXCEEDED",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
  "IDEMPOTENCY_KEY_REUSED",
  "IDEMPOTENCY_KEY_IN_USE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorOptions {
  details?: unknown;
  /** Seconds a client should wait before trying again (sent as Retry-After). */
  retryAfterSec?: number;
  /** Whether trying the same work again later can succeed (adapters set this). */
  retryable?: boolean;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly retryAfterSec?: number;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.retryAfterSec = options.retryAfterSec;
    this.retryable = options.retryable ?? false;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
