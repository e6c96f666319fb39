// The delivery log and redelivery routes in-process: createApp for the routes, the batch
// worker and the webhook dispatcher stepped on the same store and manual clock, and a real
// HTTPS receiver on loopback with its own certificate. Documents fail fast (no analysis
// needed); the retry schedule is 2s,2s, crossed by moving the clock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import type { BatchWorker } from "../../../src/batches/worker.ts";
import type { WebhookDispatcher } from "../../../src/webhooks/dispatcher.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { dispatcherOf, stepRetrySchedule, stepWorkers, workerOf } from "../../helpers/in-process-workers.ts";
import { makeTestCa } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";

const SECRET = "a-callback-secret-of-some-length";
const NOT_A_DOCUMENT = Buffer.from("not a document").toString("base64");
let service: InProcessApp;
let worker: BatchWorker;
let dispatcher: WebhookDispatcher;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
/** Status the receiver answers per batch (200 when unset). */
const answers = new Map<string, number>();

interface DeliveryBody {
  deliveryId: string;
  documentIndex: number;
  state: "pending" | "delivered" | "failed";
  attempts: {
    attempt: number;
    kind: "scheduled" | "redelivery";
    at: string;
    durationMs: number;
    status: number | null;
    error: string | null;
  }[];
  nextAttemptAt: string | null;
}

async function submit(callbackUrl: string, documents = [NOT_A_DOCUMENT]): Promise<string> {
  const response = await service.request(
    "/api/v1/verify/batch",
    json({ documents, callbackUrl, callbackSecret: SECRET }, { key }),
  );
  expect(response.status).toBe(202);
  return (await response.json()).data.batchId;
}

const deliveries = (batchId: string, apiKey = key) =>
  service.request(`/api/v1/batches/${batchId}/deliveries`, { key: apiKey });

const deliveriesOf = async (batchId: string): Promise<DeliveryBody[]> => {
  const response = await deliveries(batchId);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.data.batchId).toBe(batchId);
  return body.data.deliveries;
};

const onlyDelivery = async (batchId: string): Promise<DeliveryBody> => (await deliveriesOf(batchId))[0]!;

const redeliver = (batchId: string, deliveryId: string, apiKey = key) =>
  service.request(`/api/v1/batches/${batchId}/deliveries/${deliveryId}/redeliver`, { method: "POST", key: apiKey });

const step = () => stepWorkers(worker, dispatcher);

const exhaust = () => stepRetrySchedule(service, worker, dispatcher);

beforeAll(async () => {
  const tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls, (hook) => answers.get(hook.body.batchId) ?? 200);
  // Near real time, so the Standard Webhooks verifier's 5-minute tolerance holds.
  service = await startInProcessApp({
    env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true", DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "2s,2s" },
    clockStartMs: Date.now(),
  });
  worker = workerOf(service);
  dispatcher = dispatcherOf(service, tls.caPem);
  key = await service.createKey({ mode: "test" });
});

afterAll(async () => {
  await service?.close();
  receiver?.stop();
});

describe("the delivery log", () => {
  test("lists each document's delivery with every attempt, its status and duration, and the next attempt's time", async () => {
    const batchId = await submit(receiver.url, [NOT_A_DOCUMENT, NOT_A_DOCUMENT]);
    answers.set(batchId, 503);
    await step();
    const pending = await deliveriesOf(batchId);
    expect(pending.map((delivery) => delivery.documentIndex)).toEqual([0, 1]);
    for (const delivery of pending) {
      expect(delivery.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(delivery.attempts[0]).toEqual({
        attempt: 1,
        kind: "scheduled",
        at: new Date(service.clock.now()).toISOString(),
        durationMs: expect.any(Number),
        status: 503,
        error: null,
      });
      expect(delivery.state).toBe("pending");
      // Exactly the first delay of the schedule after the attempt.
      expect(Date.parse(delivery.nextAttemptAt!) - Date.parse(delivery.attempts[0]!.at)).toBe(2000);
      expect(receiver.received.find((hook) => hook.deliveryId === delivery.deliveryId)?.body.documentIndex).toBe(
        delivery.documentIndex,
      );
    }

    // Not a millisecond early.
    service.clock.advance(1999);
    expect(await dispatcher.dispatchDue()).toBe(0);
    service.clock.advance(1);
    await step();
    service.clock.advance(2000);
    await step();
    const failed = await onlyDelivery(batchId);
    expect(failed.state).toBe("failed");
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
    await step();
    const delivery = await onlyDelivery(batchId);
    expect(delivery.attempts[0]!.status).toBeNull();
    expect(delivery.attempts[0]!.error).toEqual(expect.any(String));
    expect(delivery.attempts[0]!.error!.length).toBeGreaterThan(0);
  });

  test("of another key's batch, or of no batch, is a 404", async () => {
    const batchId = await submit(receiver.url);
    const other = await service.createKey({ mode: "test" });
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
    await exhaust();
    const failed = await onlyDelivery(batchId);
    expect(failed.state).toBe("failed");
    answers.set(batchId, 200);

    const wakes = service.wakes.dispatcher;
    const response = await redeliver(batchId, failed.deliveryId);
    expect(response.status).toBe(202);
    // The route wakes the dispatcher rather than leaving the delivery to its next poll.
    expect(service.wakes.dispatcher).toBe(wakes + 1);
    const accepted: DeliveryBody = (await response.json()).data;
    expect(accepted.deliveryId).toBe(failed.deliveryId);
    expect(accepted.nextAttemptAt).toBe(new Date(service.clock.now()).toISOString());

    await step();
    const delivered = await onlyDelivery(batchId);
    expect(delivered.state).toBe("delivered");
    expect(delivered.attempts.at(-1)).toEqual({
      attempt: 4,
      kind: "redelivery",
      at: expect.any(String),
      durationMs: expect.any(Number),
      status: 200,
      error: null,
    });
    expect(delivered.nextAttemptAt).toBeNull();
    const hooks = receiver.forBatch(batchId);
    expect(hooks).toHaveLength(4);
    expect(new Set(hooks.map((hook) => hook.deliveryId))).toEqual(new Set([failed.deliveryId]));
    expect(new Set(hooks.map((hook) => hook.raw)).size).toBe(1);
    // The redelivery is signed afresh: a Standard Webhooks verifier accepts it now.
    const verifier = new Webhook(`whsec_${Buffer.from(SECRET, "utf8").toString("base64")}`);
    expect(verifier.verify(hooks.at(-1)!.raw, hooks.at(-1)!.headers)).toEqual(hooks[0]!.body);
  });

  test("sends a delivered one again too, and it stays delivered", async () => {
    const batchId = await submit(receiver.url);
    await step();
    const delivered = await onlyDelivery(batchId);
    expect(delivered.state).toBe("delivered");
    expect((await redeliver(batchId, delivered.deliveryId)).status).toBe(202);
    await step();
    const again = await onlyDelivery(batchId);
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
    await step();
    const delivered = await onlyDelivery(batchId);
    expect(delivered.state).toBe("delivered");
    answers.set(batchId, 500);
    expect((await redeliver(batchId, delivered.deliveryId)).status).toBe(202);
    await step();
    const after = await onlyDelivery(batchId);
    expect(after.state).toBe("delivered");
    expect(after.attempts[1]).toEqual(expect.objectContaining({ kind: "redelivery", status: 500 }));
    expect(after.nextAttemptAt).toBeNull();
    // Outside the schedule: no retry of the redelivery is ever due.
    await exhaust();
    expect(receiver.forBatch(batchId)).toHaveLength(2);
  });

  test("of another key's batch, or of a delivery not in the batch, is a 404", async () => {
    const batchId = await submit(receiver.url);
    await step();
    const delivered = await onlyDelivery(batchId);
    const other = await service.createKey({ mode: "test" });
    const refused = await redeliver(batchId, delivered.deliveryId, other);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe("NOT_FOUND");
    expect((await redeliver(batchId, crypto.randomUUID())).status).toBe(404);
    const otherBatch = await submit(receiver.url);
    expect((await redeliver(otherBatch, delivered.deliveryId)).status).toBe(404);
    await step();
    expect(receiver.forBatch(batchId)).toHaveLength(1);
  });
});
