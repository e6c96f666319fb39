// POSTs one webhook through the guarded HTTPS client: no redirects followed, the address
// actually connected checked on every attempt, a hard time limit.
import { WEBHOOK_REQUEST, guardedRequest } from "../net/guarded-request.ts";

type SendOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export type WebhookSender = (request: {
  url: string;
  body: Uint8Array;
  headers: Record<string, string>;
}) => Promise<SendOutcome>;

export interface WebhookSenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Extra trusted CAs (PEM): tests' loopback receivers; operators use NODE_EXTRA_CA_CERTS. */
  ca?: string;
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  return async ({ url, body, headers }) => {
    try {
      const response = await guardedRequest({
        ...WEBHOOK_REQUEST,
        url,
        headers,
        body,
        allowPrivate: options.allowPrivate,
        connectTimeoutMs: Math.min(WEBHOOK_REQUEST.connectTimeoutMs, options.timeoutMs),
        totalTimeoutMs: options.timeoutMs,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      });
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `receiver answered ${response.status}` };
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
