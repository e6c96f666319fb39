// A batch through a real `serve` with its embedded sidecar: the whole analysis of each
// document reaches its signed webhook. Retries, signatures of each attempt and the give-up are
// stepped with a manual clock in test/unit/api/batch-route.happy.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService } from "../../helpers/service.ts";
import { makeTestCa } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";
import {
  expectAcknowledged,
  expectCompletedBatch,
  expectOneSignedWebhookPerDocument,
} from "../../helpers/batch-assertions.ts";

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
  documents = [
    Buffer.from(await makeJpeg()).toString("base64"),
    `data:application/pdf;base64,${Buffer.from(await makePdf()).toString("base64")}`,
  ];
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

describe("a batch", () => {
  test("is acknowledged with 202, delivers one signed webhook per document, and completes", async () => {
    const response = await submit({
      documents: [...documents, Buffer.from("not a document").toString("base64")],
      callbackUrl: receiver.url,
      callbackSecret: SECRET,
    });
    const data = await expectAcknowledged(response, 3);

    const hooks = await eventually(() =>
      receiver.forBatch(data.batchId).length >= 3 ? receiver.forBatch(data.batchId) : undefined,
    );
    await expectOneSignedWebhookPerDocument(hooks, SECRET, (timestamp) =>
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60),
    );

    const status = await eventually(async () => {
      const batch = (await (await getBatch(data.batchId)).json()).data;
      return batch.status === "completed" ? batch : undefined;
    });
    expectCompletedBatch(status, data.batchId, hooks);
  });

  test("belonging to another key is indistinguishable from a missing one", async () => {
    const { data } = await (
      await submit({ documents: documents.slice(0, 1), callbackUrl: receiver.url, callbackSecret: SECRET })
    ).json();
    const other = await service.createKey("--mode", "test");
    const response = await getBatch(data.batchId, other);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("NOT_FOUND");
  });
});
