// A real HTTPS webhook receiver with its own certificate: records every delivery's raw
// bytes and headers, and answers with whatever status the test decides.
import { startHttpsServer, type TestTls } from "./tls.ts";

export interface ReceivedWebhook {
  at: number;
  raw: string;
  body: {
    batchId: string;
    documentIndex: number;
    result?: Record<string, unknown>;
    error?: { code: string; message: string };
  };
  signature: string | null;
  deliveryId: string | null;
  timestamp: string | null;
  /** Every header as received, lower-cased names (the Standard Webhooks ones among them). */
  headers: Record<string, string>;
}

export async function startWebhookReceiver(
  tls: TestTls,
  answer: (hook: ReceivedWebhook, count: number) => number | Promise<number> = () => 200,
) {
  const received: ReceivedWebhook[] = [];
  const server = await startHttpsServer(async (request) => {
    const raw = await request.text();
    const hook: ReceivedWebhook = {
      at: Date.now(),
      raw,
      body: JSON.parse(raw),
      signature: request.headers.get("x-service-signature"),
      deliveryId: request.headers.get("x-service-delivery"),
      timestamp: request.headers.get("x-service-timestamp"),
      headers: Object.fromEntries(request.headers.entries()),
    };
    received.push(hook);
    return new Response(null, { status: await answer(hook, received.length) });
  }, tls);
  return {
    url: `${server.url}/hooks`,
    received,
    forBatch: (batchId: string) => received.filter((hook) => hook.body.batchId === batchId),
    stop: () => server.stop(),
  };
}
