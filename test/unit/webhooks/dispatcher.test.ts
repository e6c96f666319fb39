// The webhook dispatcher stepped with dispatchDue() on a real SQLite store and a manual
// clock, sending through the real guarded HTTPS client to a loopback receiver with its own
// certificate: the retry schedule to the millisecond, the signing headers of every attempt,
// and a dead dispatcher's lease.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { dispatcherOf, drainWorker, workerOf } from "../../helpers/in-process-workers.ts";
import { makeTestCa, type TestTls } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";

const SECRET = "a-callback-secret-of-some-length";
const NOT_A_DOCUMENT = Buffer.from("not a document").toString("base64");
let service: InProcessApp;
let tls: TestTls;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
/** Status the receiver answers per batch (200 when unset). */
const answers = new Map<string, number>();
/** Batches whose deliveries the receiver holds unanswered until the promise settles. */
const holds = new Map<string, Promise<void>>();

/** A batch of one failing document, analysed: its webhook waits in the outbox, due now. */
async function queuedDelivery(callbackUrl = receiver.url): Promise<string> {
  const response = await service.request(
    "/api/v1/verify/batch",
    json({ documents: [NOT_A_DOCUMENT], callbackUrl, callbackSecret: SECRET }, { key }),
  );
  const { batchId } = (await response.json()).data;
  expect(await drainWorker(workerOf(service))).toBe(1);
  return batchId;
}

const outboxRow = async (batchId: string) =>
  (
    await service.testStore.read<{ state: string; attempts: number; next_attempt_at: number }>(
      `SELECT state, attempts, next_attempt_at FROM outbox WHERE batch_id = '${batchId}'`,
    )
  )[0]!;

beforeAll(async () => {
  tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls, async (hook) => {
    await holds.get(hook.body.batchId);
    return answers.get(hook.body.batchId) ?? 200;
  });
  // Near real time, so the Standard Webhooks verifier's 5-minute tolerance holds at first.
  service = await startInProcessApp({ env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true" }, clockStartMs: Date.now() });
  key = await service.createKey({ mode: "test" });
});

afterAll(async () => {
  await service?.close();
  receiver?.stop();
});

describe("the webhook dispatcher", () => {
  test("signs each attempt over the exact body: X-Service-Signature and Standard Webhooks, with the clock's timestamp", async () => {
    const batchId = await queuedDelivery();
    expect(await dispatcherOf(service, tls.caPem).dispatchDue()).toBe(1);
    const [hook] = receiver.forBatch(batchId);
    const timestamp = String(Math.floor(service.clock.now() / 1000));
    expect(hook!.headers["content-type"]).toBe("application/json");
    expect(hook!.timestamp).toBe(timestamp);
    expect(hook!.headers["webhook-timestamp"]).toBe(timestamp);
    expect(hook!.headers["webhook-id"]).toBe(hook!.deliveryId!);
    // Recomputed here from the bytes received, not with the service's own signing code.
    expect(hook!.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(hook!.raw).digest("hex")}`);
    expect(hook!.headers["webhook-signature"]).toBe(
      "v1," +
        createHmac("sha256", Buffer.from(SECRET))
          .update(`${hook!.deliveryId}.${timestamp}.${hook!.raw}`)
          .digest("base64"),
    );
    // And accepted by the verifiers integrators use.
    expect(await verifySignature(SECRET, hook!.raw, hook!.signature!)).toBe(true);
    const verifier = new Webhook(`whsec_${Buffer.from(SECRET, "utf8").toString("base64")}`);
    expect(verifier.verify(hook!.raw, hook!.headers)).toEqual(hook!.body);
    expect(() => verifier.verify(`${hook!.raw} `, hook!.headers)).toThrow();
    expect((await outboxRow(batchId)).state).toBe("delivered");
  });

  test("retries a refused delivery 1, 5 and 30 minutes after each failed attempt, then gives up: four attempts in all", async () => {
    const batchId = await queuedDelivery();
    answers.set(batchId, 503);
    const dispatcher = dispatcherOf(service, tls.caPem);
    const start = service.clock.now();
    expect(await dispatcher.dispatchDue()).toBe(1);
    for (const delay of [60_000, 300_000, 1_800_000]) {
      expect((await outboxRow(batchId)).next_attempt_at).toBe(service.clock.now() + delay);
      service.clock.advance(delay - 1);
      expect(await dispatcher.dispatchDue()).toBe(0);
      service.clock.advance(1);
      expect(await dispatcher.dispatchDue()).toBe(1);
    }
    expect(await outboxRow(batchId)).toMatchObject({ state: "failed", attempts: 4 });
    service.clock.advance(86_400_000);
    expect(await dispatcher.dispatchDue()).toBe(0);

    const hooks = receiver.forBatch(batchId);
    expect(hooks).toHaveLength(4);
    // One delivery id and one body throughout; each attempt stamped and signed afresh.
    expect(new Set(hooks.map((hook) => hook.deliveryId)).size).toBe(1);
    expect(new Set(hooks.map((hook) => hook.raw)).size).toBe(1);
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    expect(hooks.map((hook) => hook.timestamp)).toEqual(
      [start, start + 60_000, start + 360_000, start + 2_160_000].map(seconds),
    );
    for (const hook of hooks) {
      expect(hook.headers["webhook-signature"]).toBe(
        "v1," +
          createHmac("sha256", SECRET).update(`${hook.deliveryId}.${hook.timestamp}.${hook.raw}`).digest("base64"),
      );
    }
    expect(new Set(hooks.map((hook) => hook.headers["webhook-signature"])).size).toBe(4);
  });

  test("delivers on a later attempt once the receiver answers 2xx, and schedules nothing more", async () => {
    const batchId = await queuedDelivery();
    answers.set(batchId, 500);
    const dispatcher = dispatcherOf(service, tls.caPem);
    await dispatcher.dispatchDue();
    answers.set(batchId, 204);
    service.clock.advance(60_000);
    expect(await dispatcher.dispatchDue()).toBe(1);
    expect(await outboxRow(batchId)).toMatchObject({ state: "delivered", attempts: 2 });
    service.clock.advance(3_600_000);
    expect(await dispatcher.dispatchDue()).toBe(0);
  });

  test("follows no redirect: a 3xx answer is a failed attempt", async () => {
    const batchId = await queuedDelivery();
    answers.set(batchId, 302);
    await dispatcherOf(service, tls.caPem).dispatchDue();
    expect(await outboxRow(batchId)).toMatchObject({ state: "pending", attempts: 1 });
  });

  test("refuses a receiver whose certificate it cannot verify", async () => {
    const batchId = await queuedDelivery();
    const stranger = await makeTestCa();
    await dispatcherOf(service, stranger.caPem).dispatchDue();
    expect(receiver.forBatch(batchId)).toHaveLength(0);
    expect(await outboxRow(batchId)).toMatchObject({ state: "pending", attempts: 1 });
  });

  test("takes up a dead dispatcher's delivery once its lease (attempt timeout + lease) runs out", async () => {
    const batchId = await queuedDelivery();
    const { leaseMs, webhookTimeoutMs } = service.deps.config;
    const [claimed] = await service.deps.store.outbox.claimDue(
      "dead-dispatcher",
      service.clock.now(),
      webhookTimeoutMs + leaseMs,
      8,
    );
    expect(claimed?.batchId).toBe(batchId);
    const dispatcher = dispatcherOf(service, tls.caPem);
    service.clock.advance(webhookTimeoutMs + leaseMs - 1);
    expect(await dispatcher.dispatchDue()).toBe(0);
    service.clock.advance(1);
    expect(await dispatcher.dispatchDue()).toBe(1);
    expect(receiver.forBatch(batchId)).toHaveLength(1);
    // The dead one's claim counted as attempt 1: the live one's was the second.
    expect(await outboxRow(batchId)).toMatchObject({ state: "delivered", attempts: 2 });
  });
});

describe("the dispatcher's loop", () => {
  test("sends a new delivery when nudged, not at its next poll a minute later", async () => {
    const dispatcher = dispatcherOf(service, tls.caPem, { pollMs: 60_000 });
    dispatcher.start();
    try {
      await Bun.sleep(10);
      const batchId = await queuedDelivery();
      dispatcher.nudge();
      const deadline = Date.now() + 10_000;
      while ((await outboxRow(batchId)).state === "pending" && Date.now() < deadline) await Bun.sleep(5);
      expect((await outboxRow(batchId)).state).toBe("delivered");
    } finally {
      await dispatcher.stop();
    }
  });

  test("stop() waits for the attempt in flight and records it", async () => {
    const batchId = await queuedDelivery();
    let release!: () => void;
    holds.set(batchId, new Promise((resolve) => (release = resolve)));
    const dispatcher = dispatcherOf(service, tls.caPem, { pollMs: 60_000 });
    dispatcher.start();
    while (receiver.forBatch(batchId).length === 0) await Bun.sleep(1);
    let stopped = false;
    const stopping = dispatcher.stop().then(() => (stopped = true));
    await Bun.sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await outboxRow(batchId)).toMatchObject({ state: "delivered", attempts: 1 });
  });

  test("counts a receiver that does not answer within the timeout as a failed attempt, retried on schedule", async () => {
    const batchId = await queuedDelivery();
    holds.set(batchId, new Promise(() => {}));
    const dispatcher = dispatcherOf(service, tls.caPem, { timeoutMs: 200 });
    expect(await dispatcher.dispatchDue()).toBe(1);
    expect(await outboxRow(batchId)).toMatchObject({
      state: "pending",
      attempts: 1,
      next_attempt_at: service.clock.now() + 60_000,
    });
    const [attempt] = await service.testStore.read<{ status: number | null; error: string | null }>(
      `SELECT status, error FROM delivery_attempts WHERE delivery_id = (SELECT delivery_id FROM outbox WHERE batch_id = '${batchId}')`,
    );
    expect(attempt).toEqual({ status: null, error: expect.any(String) });
  });
});
