// A batch from submission to its webhooks in-process: POST /api/v1/verify/batch and
// GET /api/v1/batches/:id through createApp, the worker and the dispatcher stepped on the same
// store and manual clock, and a real HTTPS receiver on loopback. The retry schedule is
// 1s,2s,3s, crossed by moving the clock; the clock starts at real time so the Standard
// Webhooks verifier's tolerance holds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import type { BatchWorker } from "../../../src/batches/worker.ts";
import type { WebhookDispatcher } from "../../../src/webhooks/dispatcher.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { dispatcherOf, stepRetrySchedule, stepWorkers, workerOf } from "../../helpers/in-process-workers.ts";
import { makeTestCa } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";
import {
  expectAcknowledged,
  expectCompletedBatch,
  expectOneSignedWebhookPerDocument,
} from "../../helpers/batch-assertions.ts";

const SECRET = "a-callback-secret-of-some-length";
let service: InProcessApp;
let worker: BatchWorker;
let dispatcher: WebhookDispatcher;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let documents: string[];
/** Batches whose first `failures` attempts the receiver refuses. */
const refuse = new Map<string, number>();

const submit = (body: object, apiKey = key) => service.request("/api/v1/verify/batch", json(body, { key: apiKey }));

const getBatch = (batchId: string, apiKey = key) => service.request(`/api/v1/batches/${batchId}`, { key: apiKey });

const step = () => stepWorkers(worker, dispatcher);

const runSchedule = () => stepRetrySchedule(service, worker, dispatcher);

beforeAll(async () => {
  const tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls, (hook) => {
    const left = refuse.get(hook.body.batchId) ?? 0;
    if (left > 0) {
      refuse.set(hook.body.batchId, left - 1);
      return 503;
    }
    return 200;
  });
  service = await startInProcessApp({
    env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true", DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "1s,2s,3s" },
    clockStartMs: Date.now(),
  });
  worker = workerOf(service);
  dispatcher = dispatcherOf(service, tls.caPem);
  key = await service.createKey({ mode: "test" });
  documents = [
    Buffer.from(await makeJpeg()).toString("base64"),
    `data:application/pdf;base64,${Buffer.from(makePdf()).toString("base64")}`,
  ];
});

afterAll(async () => {
  await service?.close();
  receiver?.stop();
});

describe("a batch", () => {
  test("is acknowledged with 202 and stored before any analysis, then delivers one signed webhook per document, and completes", async () => {
    const response = await submit({
      documents: [...documents, Buffer.from("not a document").toString("base64")],
      callbackUrl: receiver.url,
      callbackSecret: SECRET,
    });
    const data = await expectAcknowledged(response, 3);
    // The route woke the worker; nothing was analysed on the request's path.
    expect(service.wakes.batchWorker).toBe(1);
    expect(service.analysed).toBe(0);
    const waiting = (await (await getBatch(data.batchId)).json()).data;
    expect(waiting).toMatchObject({ completedCount: 0, failedCount: 0, status: "processing", verificationIds: [] });
    expect(waiting.createdAt).toBe(new Date(service.clock.now()).toISOString());

    await step();
    const hooks = receiver.forBatch(data.batchId);
    await expectOneSignedWebhookPerDocument(hooks, SECRET, (timestamp) =>
      expect(timestamp).toBe(String(Math.floor(service.clock.now() / 1000))),
    );

    const status = (await (await getBatch(data.batchId)).json()).data;
    expectCompletedBatch(status, data.batchId, hooks);
  });

  test("is retried on a non-2xx answer with the same delivery id and bytes, after each delay", async () => {
    const { data } = await (
      await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })
    ).json();
    refuse.set(data.batchId, 2);
    const start = service.clock.now();
    await runSchedule();
    const hooks = receiver.forBatch(data.batchId);
    expect(hooks).toHaveLength(3);
    expect(new Set(hooks.map((hook) => hook.deliveryId)).size).toBe(1);
    expect(new Set(hooks.map((hook) => hook.raw)).size).toBe(1);
    // Attempts at 0, 1 s and 1 + 2 s: each timestamp is its attempt's.
    expect(hooks.map((hook) => Number(hook.timestamp))).toEqual(
      [start, start + 1000, start + 3000].map((ms) => Math.floor(ms / 1000)),
    );
  });

  test("carries Standard Webhooks headers that the standardwebhooks verifier accepts, each retry signed afresh", async () => {
    const { data } = await (
      await submit({
        documents: [Buffer.from("not a document").toString("base64")],
        callbackUrl: receiver.url,
        callbackSecret: SECRET,
      })
    ).json();
    refuse.set(data.batchId, 1);
    await runSchedule();
    const hooks = receiver.forBatch(data.batchId);
    expect(hooks).toHaveLength(2);
    // The verifier's key is `whsec_` + base64 of the callbackSecret's UTF-8 bytes.
    const verifier = new Webhook(`whsec_${Buffer.from(SECRET, "utf8").toString("base64")}`);
    for (const hook of hooks) {
      expect(hook.headers["webhook-id"]).toBe(hook.deliveryId!);
      expect(hook.headers["webhook-timestamp"]).toBe(hook.timestamp!);
      expect(hook.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(verifier.verify(hook.raw, hook.headers)).toEqual(hook.body);
      expect(await verifySignature(SECRET, hook.raw, hook.signature!)).toBe(true);
    }
    expect(hooks[1]!.headers["webhook-id"]).toBe(hooks[0]!.headers["webhook-id"]!);
    expect(hooks[1]!.headers["webhook-signature"]).not.toBe(hooks[0]!.headers["webhook-signature"]!);
    // Replaying the first attempt's headers with a later attempt's body is refused, as is another
    // secret.
    expect(() => verifier.verify(`${hooks[0]!.raw} `, hooks[0]!.headers)).toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another-secret-0123").toString("base64")}`).verify(
        hooks[0]!.raw,
        hooks[0]!.headers,
      ),
    ).toThrow();
  });

  test("gives up after the last retry: four attempts in all", async () => {
    const { data } = await (
      await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })
    ).json();
    refuse.set(data.batchId, 100);
    await runSchedule();
    expect(receiver.forBatch(data.batchId)).toHaveLength(4);
    service.clock.advance(86_400_000);
    await step();
    expect(receiver.forBatch(data.batchId)).toHaveLength(4);
  });

  test("belonging to another key is indistinguishable from a missing one", async () => {
    const { data } = await (
      await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })
    ).json();
    const other = await service.createKey({ mode: "test" });
    const response = await getBatch(data.batchId, other);
    expect(response.status).toBe(404);
    const missing = await getBatch(crypto.randomUUID());
    expect(await missing.json()).toEqual({
      error: { ...(await response.json()).error, requestId: expect.any(String) },
    });
  });

  test("with an Idempotency-Key is enqueued once: a retry gets the same batch id and no document is delivered twice", async () => {
    const body = {
      documents: ["bm90IGEgZG9jdW1lbnQ=", "YWxzbyBub3QgYSBkb2N1bWVudA=="],
      callbackUrl: receiver.url,
      callbackSecret: SECRET,
    };
    const headers = { "idempotency-key": "batch-1" };
    const first = await service.request("/api/v1/verify/batch", json(body, { key, headers }));
    expect(first.status).toBe(202);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const again = await service.request("/api/v1/verify/batch", json(body, { key, headers }));
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
    await runSchedule();
    const { batchId } = JSON.parse(firstBytes.toString()).data;
    expect(receiver.forBatch(batchId)).toHaveLength(2);
    expect(
      await service.testStore.read("SELECT id FROM batches WHERE id NOT IN (SELECT DISTINCT batch_id FROM outbox)"),
    ).toEqual([]);
  });
});
