// A batch through a real `serve` with its embedded sidecar: the whole analysis of each
// document reaches its signed webhook. Retries, signatures of each attempt and the give-up are
// stepped with a manual clock in test/unit/api/batch-route.happy.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import { eventually, startService, type TestService } from "../../helpers/service";
import { makeTestCa } from "../../helpers/tls";
import { startWebhookReceiver } from "../../helpers/webhook-receiver";
import { makeJpeg, makePdf } from "../../helpers/fixtures";

const SECRET = "a-callback-secret-of-some-length";
let service: TestService;
let key: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let documents: string[];

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
  receiver = await startWebhookReceiver(tls);
  service = await startService({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
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

  test("belonging to another key is indistinguishable from a missing one", async () => {
    const { data } = await (await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })).json();
    const other = await service.createKey("--mode", "test");
    const response = await getBatch(data.batchId, other);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("NOT_FOUND");
  });
});
