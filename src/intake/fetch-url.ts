// Fetches a documentUrl through the guarded HTTPS client and turns every network outcome
// into the API's error codes. Messages say what went wrong, never what came back.

import { AppError } from "../errors.ts";
import { parseHttpsUrl } from "../net/address-policy.ts";
import type { NetError, NetErrorKind } from "../net/errors.ts";
import { isNetError } from "../net/errors.ts";
import { expectSuccess, guardedRequest } from "../net/guarded-request.ts";
import { LIMITS } from "./document.ts";

/**
 * Spec: at most 3 redirects, 10 MB; timeouts chosen so a verify call fails well inside a client's
 * patience.
 */
const DOCUMENT_FETCH = {
  maxRedirects: 3,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  maxResponseBytes: LIMITS.urlBytes,
} as const;

export interface FetchDocumentOptions {
  /** DOCVERIFY_ALLOW_PRIVATE_URLS. */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), added to the runtime's store. */
  ca?: string | string[];
}

export async function fetchDocumentUrl(url: string, options: FetchDocumentOptions): Promise<Uint8Array> {
  const target = parseHttpsUrl(url, "documentUrl");
  try {
    const response = await guardedRequest({
      ...DOCUMENT_FETCH,
      method: "GET",
      url: target,
      headers: { accept: "image/jpeg, image/png, application/pdf" },
      allowPrivate: options.allowPrivate,
      ca: options.ca,
    });
    return expectSuccess(response).body;
  } catch (error) {
    if (!isNetError(error)) throw error;
    if (error.kind === "too_large") {
      throw new AppError("FILE_TOO_LARGE", `the document at documentUrl is larger than ${LIMITS.urlBytes} bytes`);
    }
    throw new AppError("FETCH_FAILED", `documentUrl could not be fetched: ${reason(error)}`, {
      details: { reason: error.kind, ...(error.status === undefined ? {} : { status: error.status }) },
      retryable: error.retryable,
      cause: error,
    });
  }
}

const REASONS: Record<Exclude<NetErrorKind, "bad_status">, string> = {
  bad_url: "the URL is not a valid HTTPS URL",
  refused_address: "its host resolves to an address that may not be reached",
  dns: "its host name could not be resolved",
  connect: "the connection to its host failed",
  tls: "the TLS certificate of its host could not be verified",
  timeout: "its host did not answer in time",
  too_many_redirects: `it redirected more than ${DOCUMENT_FETCH.maxRedirects} times`,
  bad_redirect: "it redirected to a URL that is not HTTPS or not valid",
  too_large: "the answer is too large",
  protocol: "the answer broke off",
};

function reason(error: NetError): string {
  return error.kind === "bad_status" ? `its host answered HTTP ${error.status}` : REASONS[error.kind];
}
