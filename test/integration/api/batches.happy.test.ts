import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { eventually, startService, type TestService } from "../../helpers/service";
import { makeTestCa } from "../../helpers/tls";
import { startWebhookReceiver } from "../../helpers/webhook-receiver";
import { makeJpeg, makePdf } from "../../helpers/fixtures";

const SECRET = "a-callback-secret-of-some-length";
let service: TestService;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let documents: string[];
/** Batches whose first `failures` attempts the receiver refuses. */
const refuse = new Map<string, number>();

const submit = (body: object, apiKey = key) =>
  fetch(`${service.url}/api/v1/verify/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const getBatch = async (batchId: string, apiKey = key) =>
  fetch(`${service.url}/api/v1/batches/${batchId}`, { headers: { authorization: `Bearer ${apiKey}` } });

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
  service = await startService({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
      DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "1s,2s,3s",
      DOCVERIFY_OUTBOX_POLL_MS: "50",
    },
  });
  key = await service.createKey("--mode", "test");
  documents = [Buffer.from(await makeJpeg()).toString("base64"), `data:application/pdf;base64,${Buffer.from(await makePdf()).toString("base64")}`];
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

describe("a batch", () => {
  test("is acknowledged with 202, delivers one signed webhook per document, and completes", async () => {
    const response = await submit({ documents: [...documents, Buffer.from("not a document").toString("base64")], callbackUrl: receiver.url, callbackSecret: SECRET });
    expect(response.status).toBe(202);
    const { data } = await response.json();
    expect(data).toEqual({ batchId: expect.stringMatching(/^[0-9a-f-]{36}$/), totalDocuments: 3, status: "processing" });

    const hooks = await eventually(() => (receiver.forBatch(data.batchId).length >= 3 ? receiver.forBatch(data.batchId) : undefined));
    expect(hooks.map((hook) => hook.body.documentIndex).sort()).toEqual([0, 1, 2]);
    for (const hook of hooks) {
      expect(await verifySignature(SECRET, hook.raw, hook.signature!)).toBe(true);
      expect(hook.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(hook.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Math.abs(Number(hook.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    }
    const failed = hooks.find((hook) => hook.body.documentIndex === 2)!;
    expect(failed.body.error).toEqual({ code: "UNSUPPORTED_FORMAT", message: expect.any(String) });
    expect(failed.body.result).toBeUndefined();
    for (const hook of hooks.filter((h) => h.body.documentIndex !== 2)) {
      expect(hook.body.result?.sandbox).toBe(true);
      expect(hook.body.result?.id).toMatch(/^ver_/);
    }

    const status = await eventually(async () => {
      const batch = (await (await getBatch(data.batchId)).json()).data;
      return batch.status === "completed" ? batch : undefined;
    });
    expect(status).toEqual({
      batchId: data.batchId,
      totalDocuments: 3,
      completedCount: 3,
      failedCount: 1,
      status: "completed",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      verificationIds: expect.any(Array),
    });
    expect(status.verificationIds.sort()).toEqual(hooks.filter((h) => h.body.result).map((h) => h.body.result!.id as string).sort());
  });

  test("is retried on a non-2xx answer with the same delivery id and bytes, after each delay", async () => {
    const response = await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET });
    const { data } = await response.json();
    refuse.set(data.batchId, 2);
    const hooks = await eventually(() => (receiver.forBatch(data.batchId).length >= 3 ? receiver.forBatch(data.batchId) : undefined), 30_000);
    expect(new Set(hooks.map((hook) => hook.deliveryId)).size).toBe(1);
    expect(new Set(hooks.map((hook) => hook.raw)).size).toBe(1);
    expect(hooks[1]!.at - hooks[0]!.at).toBeGreaterThanOrEqual(900);
    expect(hooks[2]!.at - hooks[1]!.at).toBeGreaterThanOrEqual(1900);
    await Bun.sleep(500);
    expect(receiver.forBatch(data.batchId).length).toBe(3);
  });

  test("carries Standard Webhooks headers that the standardwebhooks verifier accepts, each retry signed afresh", async () => {
    const response = await submit({ documents: [Buffer.from("not a document").toString("base64")], callbackUrl: receiver.url, callbackSecret: SECRET });
    const { data } = await response.json();
    refuse.set(data.batchId, 1);
    const hooks = await eventually(() => (receiver.forBatch(data.batchId).length >= 2 ? receiver.forBatch(data.batchId) : undefined), 30_000);
    // The verifier's key is `whsec_` + base64 of the callbackSecret's UTF-8 bytes.
    const verifier = new Webhook("whsec_" + Buffer.from(SECRET, "utf8").toString("base64"));
    for (const hook of hooks) {
      expect(hook.headers["webhook-id"]).toBe(hook.deliveryId!);
      expect(hook.headers["webhook-timestamp"]).toBe(hook.timestamp!);
      expect(hook.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(verifier.verify(hook.raw, hook.headers)).toEqual(hook.body);
      expect(await verifySignature(SECRET, hook.raw, hook.signature!)).toBe(true);
    }
    expect(hooks[1]!.headers["webhook-id"]).toBe(hooks[0]!.headers["webhook-id"]!);
    // Replaying the first attempt's headers with a later attempt's body is refused, as is another secret.
    expect(() => verifier.verify(hooks[0]!.raw + " ", hooks[0]!.headers)).toThrow();
    expect(() => new Webhook("whsec_" + Buffer.from("another-secret-0123").toString("base64")).verify(hooks[0]!.raw, hooks[0]!.headers)).toThrow();
  });

  test("gives up after the last retry: four attempts in all", async () => {
    const response = await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET });
    const { data } = await response.json();
    refuse.set(data.batchId, 100);
    await eventually(() => (receiver.forBatch(data.batchId).length >= 4 ? true : undefined), 30_000);
    await Bun.sleep(4000);
    expect(receiver.forBatch(data.batchId).length).toBe(4);
  });

  test("belonging to another key is indistinguishable from a missing one", async () => {
    const { data } = await (await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })).json();
    const other = await service.createKey("--mode", "test");
    const response = await getBatch(data.batchId, other);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("NOT_FOUND");
  });
});
