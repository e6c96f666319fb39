// The one error type of outbound HTTPS. Callers (document fetcher, webhook sender) map it
// to their own outcome; `retryable` tells them whether the same request later can succeed.

export type NetErrorKind =
  | "bad_url"
  | "refused_address"
  | "dns"
  | "connect"
  | "tls"
  | "timeout"
  | "too_large"
  | "too_many_redirects"
  | "bad_redirect"
  | "bad_status"
  | "protocol";

const RETRYABLE_BY_DEFAULT: Record<NetErrorKind, boolean> = {
  bad_url: false,
  refused_address: false,
  dns: true,
  connect: true,
  tls: false,
  timeout: true,
  too_large: false,
  too_many_redirects: false,
  bad_redirect: false,
  bad_status: false,
  protocol: true,
};

export interface NetErrorOptions {
  retryable?: boolean;
  /** HTTP status of the answer that caused the error, when there was one. */
  status?: number;
  cause?: unknown;
}

export class NetError extends Error {
  readonly kind: NetErrorKind;
  readonly retryable: boolean;
  readonly status?: number;

  constructor(kind: NetErrorKind, message: string, options: NetErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "NetError";
    this.kind = kind;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT[kind];
    this.status = options.status;
  }
}

export const isNetError = (value: unknown): value is NetError => value instanceof NetError;
