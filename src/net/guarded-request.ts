// The one outbound HTTPS client: document URLs and webhook deliveries both go through it.
//
// Built on node:https rather than fetch because Bun's fetch ignores `agent` and has no
// `lookup` hook, so nothing could stop it connecting to a forbidden address. Here every connection
// resolves through `checkedLookup` (the socket connects to the very addresses that were
// checked), IP-literal hosts are checked before connecting, and every redirect hop is
// checked again. TLS verification is always on.

import https from "node:https";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import net from "node:net";
import tls from "node:tls";
import { bareHostname, httpsUrlProblem } from "./address-policy.ts";
import type { AddressPolicy } from "./checked-lookup.ts";
import { addressPolicy, checkedLookup, resolveCheckedAddresses } from "./checked-lookup.ts";
import { NetError } from "./errors.ts";

export interface GuardedRequestOptions {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /**
   * DOCVERIFY_ALLOW_PRIVATE_URLS: when false, loopback/private/link-local/metadata peers are
   * refused.
   */
  allowPrivate: boolean;
  /**
   * Replaces the policy `allowPrivate` selects, e.g. to refuse all but one known peer.
   * Tests use it to let a loopback server answer and still see later hops refused.
   */
  refuseAddress?: AddressPolicy;
  /** Until the TLS handshake completes. */
  connectTimeoutMs: number;
  /** The whole exchange, every redirect hop and the body included. */
  totalTimeoutMs: number;
  maxResponseBytes: number;
  /**
   * Answer with the status and headers only, without reading the body (webhook receivers' replies).
   */
  discardBody?: boolean;
  /** 0 for webhooks: a redirect answer is then a NetError("too_many_redirects"). */
  maxRedirects: number;
  /**
   * Extra trusted CA certificates (PEM) on top of the runtime's store. Operators use
   * NODE_EXTRA_CA_CERTS instead, which Bun applies to node:https itself.
   */
  ca?: string | string[];
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
  /** The URL that gave this answer, after redirects. */
  url: URL;
}

/**
 * The settings the operating contract fixes for a webhook delivery: POST, no redirects, an answer
 * within 15 s. Only the receiver's status matters, so its body is never read.
 */
export const WEBHOOK_REQUEST = {
  method: "POST",
  maxRedirects: 0,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxResponseBytes: 0,
  discardBody: true,
} as const satisfies Partial<GuardedRequestOptions>;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials meant for one origin must not follow a redirect to another.
const ORIGIN_BOUND_HEADERS = ["authorization", "cookie", "proxy-authorization"];

export async function guardedRequest(options: GuardedRequestOptions): Promise<GuardedResponse> {
  let url = toTargetUrl(options.url, "bad_url");
  let method = options.method.toUpperCase();
  let body = options.body;
  let headers = { ...lowerCaseKeys(options.headers ?? {}) };
  const ca = options.ca === undefined ? undefined : withDefaultCas(options.ca);
  const refuse = options.refuseAddress ?? addressPolicy(options.allowPrivate);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.totalTimeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await sendOnce({ url, method, headers, body, ca, refuse, signal: deadline.signal, options });
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return response;
      if (redirects >= options.maxRedirects) {
        throw new NetError("too_many_redirects", `more than ${options.maxRedirects} redirects`, {
          status: response.status,
        });
      }
      const next = toTargetUrl(resolveLocation(location, url), "bad_redirect");
      if (next.origin !== url.origin) {
        for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      }
      // Browsers' and fetch's rule: 303, and 301/302 after a POST, continue as a GET without a
      // body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers = withoutBodyHeaders(headers);
      }
      url = next;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Throws NetError("bad_status") unless the answer is 2xx; 408, 429 and 5xx may be retried. */
export function expectSuccess(response: GuardedResponse): GuardedResponse {
  const { status } = response;
  if (status >= 200 && status < 300) return response;
  throw new NetError("bad_status", `answered HTTP ${status}`, {
    status,
    retryable: status === 408 || status === 429 || status >= 500,
  });
}

function toTargetUrl(raw: string | URL, kind: "bad_url" | "bad_redirect"): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new NetError(kind, kind === "bad_url" ? "not an absolute URL" : "redirect to an invalid URL", {
      cause: error,
    });
  }
  const problem = httpsUrlProblem(url);
  if (problem !== null) throw new NetError(kind, kind === "bad_url" ? `URL ${problem}` : `redirect target ${problem}`);
  return url;
}

function resolveLocation(location: string, base: URL): string | URL {
  try {
    return new URL(location, base);
  } catch {
    return location;
  }
}

// A `ca` option replaces the whole trust store (checked in Bun and Node), which would drop
// the public roots and NODE_EXTRA_CA_CERTS; "default" is exactly those two together.
function withDefaultCas(extra: string | string[]): string[] {
  return [...tls.getCACertificates("default"), ...[extra].flat()];
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { "content-type": _type, "content-length": _length, ...rest } = headers;
  return rest;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  ca: string[] | undefined;
  refuse: AddressPolicy;
  signal: AbortSignal;
  options: GuardedRequestOptions;
}

async function sendOnce(hop: Hop): Promise<GuardedResponse> {
  const { url, options, signal } = hop;
  const host = bareHostname(url);
  const literal = net.isIP(host) !== 0;
  // Sockets skip `lookup` for IP literals, so those are checked here. URL parsing has
  // already turned 2130706433, 0x7f.1 and friends into dotted or RFC 5952 form.
  if (literal) await resolveCheckedAddresses(host, hop.refuse);
  if (signal.aborted) throw totalTimeout(options);

  return new Promise<GuardedResponse>((resolve, reject) => {
    let lookupError: NetError | undefined;
    let settled = false;

    const request = https.request({
      host,
      port: url.port === "" ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: {
        host: url.host,
        "user-agent": "docverify",
        "accept-encoding": "identity",
        ...hop.headers,
        ...(hop.body === undefined ? {} : { "content-length": String(hop.body.byteLength) }),
      },
      // A pooled socket would skip the lookup, and could have been opened under another policy.
      agent: false,
      lookup: checkedLookup(hop.refuse, (error) => {
        lookupError = error;
      }),
      servername: literal ? undefined : host,
      ca: hop.ca,
    });

    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener("abort", onDeadline);
      outcome();
    };
    const fail = (error: NetError, response?: IncomingMessage) =>
      finish(() => {
        response?.destroy();
        request.destroy();
        reject(error);
      });
    const onDeadline = () => fail(totalTimeout(options));

    const connectTimer = setTimeout(
      () => fail(new NetError("timeout", `no connection within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );
    signal.addEventListener("abort", onDeadline, { once: true });
    request.once("socket", (socket) => socket.once("secureConnect", () => clearTimeout(connectTimer)));
    request.on("error", (error) => fail(lookupError ?? classifySocketError(error)));

    request.once("response", (response) => {
      clearTimeout(connectTimer);
      const status = response.statusCode ?? 0;
      const isRedirect = REDIRECT_STATUSES.has(status) && response.headers.location !== undefined;
      if (isRedirect || options.discardBody === true) {
        finish(() => {
          response.destroy();
          resolve({ status, headers: response.headers, body: new Uint8Array(0), url });
        });
        return;
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxResponseBytes) {
        fail(tooLarge(options), response);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > options.maxResponseBytes) fail(tooLarge(options), response);
        else chunks.push(chunk);
      });
      response.once("end", () =>
        finish(() => resolve({ status, headers: response.headers, body: new Uint8Array(Buffer.concat(chunks)), url })),
      );
      response.once("error", (error) =>
        fail(new NetError("protocol", "the answer broke off", { cause: error }), response),
      );
    });

    request.end(hop.body);
  });
}

function totalTimeout(options: GuardedRequestOptions): NetError {
  return new NetError("timeout", `no complete answer within ${options.totalTimeoutMs} ms`);
}

function tooLarge(options: GuardedRequestOptions): NetError {
  return new NetError("too_large", `answer larger than ${options.maxResponseBytes} bytes`);
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_INVALID_CERT)/;

function classifySocketError(error: Error): NetError {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (TLS_CODE.test(code)) return new NetError("tls", `TLS verification failed (${code})`, { cause: error });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new NetError("dns", "the host could not be resolved", { cause: error });
  return new NetError("connect", `connection failed${code === "" ? "" : ` (${code})`}`, { cause: error });
}

// What a webhook sender or URL validator needs besides guardedRequest, from one import.
export { NetError, isNetError } from "./errors.ts";
export { checkUrlTarget } from "./checked-lookup.ts";
