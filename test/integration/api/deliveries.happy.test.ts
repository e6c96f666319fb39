// The delivery log and redelivery, end to end: a real service, a real HTTPS receiver with its
// own certificate, documents that fail fast (so no model is needed) and a short retry schedule.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { eventually, startService, type TestService } from "../../helpers/service";
import { makeTestCa } from "../../helpers/tls";
import { startWebhookReceiver } from "../../helpers/webhook-receiver";

const SECRET = "a-callback-secret-of-some-length";
const NOT_A_DOCUMENT = Buffer.from("not a document").toString("base64");
let service: TestService;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
/** Status the receiver answers per batch (200 when unset). */
const answers = new Map<string, number>();

interface DeliveryBody {
  deliveryId: string;
  documentIndex: number;
  state: "pending" | "delivered" | "failed";
  attempts: { attempt: number; kind: "scheduled" | "redelivery"; at: string; durationMs: number; status: number | null; error: string | null }[];
  nextAttemptAt: string | null;
}

const authorized = (apiKey = key) => ({ authorization: `Bearer ${apiKey}` });

async function submit(callbackUrl: string, documents = [NOT_A_DOCUMENT]): Promise<string> {
  const response = await fetch(`${service.url}/api/v1/verify/batch`, {
    method: "POST",
    headers: { ...authorized(), "content-type": "application/json" },
    body: JSON.stringify({ documents, callbackUrl, callbackSecret: SECRET }),
  });
  expect(response.status).toBe(202);
  return (await response.json()).data.batchId;
}

const deliveries = async (batchId: string, apiKey = key) => fetch(`${service.url}/api/v1/batches/${batchId}/deliveries`, { headers: authorized(apiKey) });

const deliveriesOf = async (batchId: string): Promise<DeliveryBody[]> => {
  const response = await deliveries(batchId);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.data.batchId).toBe(batchId);
  return body.data.deliveries;
};

const redeliver = (batchId: string, deliveryId: string, apiKey = key) =>
  fetch(`${service.url}/api/v1/batches/${batchId}/deliveries/${deliveryId}/redeliver`, { method: "POST", headers: authorized(apiKey) });

/** Waits until the batch's only delivery satisfies `done`. */
const waitFor = (batchId: string, done: (delivery: DeliveryBody) => boolean) =>
  eventually(async () => {
    const [delivery] = await deliveriesOf(batchId);
    return delivery && done(delivery) ? delivery : undefined;
  }, 30_000, 50);

beforeAll(async () => {
  const tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls, (hook) => answers.get(hook.body.batchId) ?? 200);
  service = await startService({
    env: { NODE_EXTRA_CA_CERTS: tls.caFile, DOCVERIFY_ALLOW_PRIVATE_URLS: "true", DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "2s,2s", DOCVERIFY_OUTBOX_POLL_MS: "50" },
  });
  key = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

describe("the delivery log", () => {
  test("lists each document's delivery with every attempt, its status and duration, and the next attempt's time", async () => {
    const batchId = await submit(receiver.url, [NOT_A_DOCUMENT, NOT_A_DOCUMENT]);
    answers.set(batchId, 503);
    const pending = await eventually(async () => {
      const list = await deliveriesOf(batchId);
      return list.length === 2 && list.every((delivery) => delivery.attempts.length === 1) ? list : undefined;
    }, 30_000, 50);
    expect(pending.map((delivery) => delivery.documentIndex)).toEqual([0, 1]);
    for (const delivery of pending) {
      expect(delivery.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(delivery.attempts[0]).toEqual({ attempt: 1, kind: "scheduled", at: expect.any(String), durationMs: expect.any(Number), status: 503, error: null });
      expect(delivery.state).toBe("pending");
      const next = Date.parse(delivery.nextAttemptAt!) - Date.parse(delivery.attempts[0]!.at);
      expect(next).toBeGreaterThanOrEqual(2000);
      expect(next).toBeLessThan(4000);
      expect(receiver.received.find((hook) => hook.deliveryId === delivery.deliveryId)?.body.documentIndex).toBe(delivery.documentIndex);
    }

    const failed = await waitFor(batchId, (delivery) => delivery.state === "failed");
    expect(failed.attempts.map((attempt) => [attempt.attempt, attempt.kind, attempt.status])).toEqual([
      [1, "scheduled", 503],
      [2, "scheduled", 503],
      [3, "scheduled", 503],
    ]);
    expect(failed.nextAttemptAt).toBeNull();
  });

  test("records a connection error where no HTTP answer came", async () => {
    // Port 1 on loopback: nothing listens, the connection is refused.
    const batchId = await submit("https://127.0.0.1:1/hooks");
    const delivery = await waitFor(batchId, (d) => d.attempts.length >= 1);
    expect(delivery.attempts[0]!.status).toBeNull();
    expect(delivery.attempts[0]!.error).toEqual(expect.any(String));
    expect(delivery.attempts[0]!.error!.length).toBeGreaterThan(0);
  });

  test("of another key's batch, or of no batch, is a 404", async () => {
    const batchId = await submit(receiver.url);
    const other = await service.createKey("--mode", "test");
    const response = await deliveries(batchId, other);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("NOT_FOUND");
    expect((await deliveries(crypto.randomUUID())).status).toBe(404);
    expect((await deliveries("not-a-uuid")).status).toBe(404);
  });
});

describe("redelivery", () => {
  test("sends a failed delivery again now with the same id and bytes, answered 202 and logged as an attempt", async () => {
    const batchId = await submit(receiver.url);
    answers.set(batchId, 503);
    const failed = await waitFor(batchId, (delivery) => delivery.state === "failed");
    answers.set(batchId, 200);

    const requestedAt = Date.now();
    const response = await redeliver(batchId, failed.deliveryId);
    expect(response.status).toBe(202);
    const accepted: DeliveryBody = (await response.json()).data;
    expect(accepted.deliveryId).toBe(failed.deliveryId);
    expect(Math.abs(Date.parse(accepted.nextAttemptAt!) - requestedAt)).toBeLessThan(5000);

    const delivered = await waitFor(batchId, (delivery) => delivery.state === "delivered");
    expect(delivered.attempts.at(-1)).toEqual({ attempt: 4, kind: "redelivery", at: expect.any(String), durationMs: expect.any(Number), status: 200, error: null });
    expect(delivered.nextAttemptAt).toBeNull();
    const hooks = receiver.forBatch(batchId);
    expect(hooks).toHaveLength(4);
    expect(new Set(hooks.map((hook) => hook.deliveryId))).toEqual(new Set([failed.deliveryId]));
    expect(new Set(hooks.map((hook) => hook.raw)).size).toBe(1);
    // The redelivery is signed afresh: a Standard Webhooks verifier accepts it now.
    const verifier = new Webhook("whsec_" + Buffer.from(SECRET, "utf8").toString("base64"));
    expect(verifier.verify(hooks.at(-1)!.raw, hooks.at(-1)!.headers)).toEqual(hooks[0]!.body);
  });

  test("sends a delivered one again too, and it stays delivered", async () => {
    const batchId = await submit(receiver.url);
    const delivered = await waitFor(batchId, (delivery) => delivery.state === "delivered");
    expect((await redeliver(batchId, delivered.deliveryId)).status).toBe(202);
    const again = await waitFor(batchId, (delivery) => delivery.attempts.length === 2);
    expect(again.state).toBe("delivered");
    expect(again.attempts.map((attempt) => [attempt.kind, attempt.status])).toEqual([
      ["scheduled", 200],
      ["redelivery", 200],
    ]);
    const hooks = receiver.forBatch(batchId);
    expect(hooks).toHaveLength(2);
    expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
    expect(hooks[1]!.deliveryId).toBe(hooks[0]!.deliveryId);
  });

  test("a failed redelivery is logged and leaves a delivered delivery delivered", async () => {
    const batchId = await submit(receiver.url);
    const delivered = await waitFor(batchId, (delivery) => delivery.state === "delivered");
    answers.set(batchId, 500);
    expect((await redeliver(batchId, delivered.deliveryId)).status).toBe(202);
    const after = await waitFor(batchId, (delivery) => delivery.attempts.length === 2);
    expect(after.state).toBe("delivered");
    expect(after.attempts[1]).toEqual(expect.objectContaining({ kind: "redelivery", status: 500 }));
    expect(after.nextAttemptAt).toBeNull();
    await Bun.sleep(500);
    expect(receiver.forBatch(batchId)).toHaveLength(2);
  });

  test("of another key's batch, or of a delivery not in the batch, is a 404", async () => {
    const batchId = await submit(receiver.url);
    const delivered = await waitFor(batchId, (delivery) => delivery.state === "delivered");
    const other = await service.createKey("--mode", "test");
    const refused = await redeliver(batchId, delivered.deliveryId, other);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe("NOT_FOUND");
    expect((await redeliver(batchId, crypto.randomUUID())).status).toBe(404);
    const otherBatch = await submit(receiver.url);
    expect((await redeliver(otherBatch, delivered.deliveryId)).status).toBe(404);
    await Bun.sleep(300);
    expect(receiver.forBatch(batchId)).toHaveLength(1);
  });
});
