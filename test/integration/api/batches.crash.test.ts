import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually, newDataDir, startService, type TestService } from "../../helpers/service.ts";
import { makeTestCa, type TestTls } from "../../helpers/tls.ts";
import type { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { killMidBatchEnv, startSlowWebhookReceiver } from "../../helpers/kill-mid-batch.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

let tls: TestTls;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let service: TestService | undefined;

const envFor = () => killMidBatchEnv(tls);

beforeAll(async () => {
  tls = await makeTestCa();
  receiver = await startSlowWebhookReceiver(tls);
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

test("a kill -9 during a batch loses nothing: after a restart every document is delivered", async () => {
  const dataDir = newDataDir();
  service = await startService({ dataDir, env: envFor() });
  const key = await service.createKey("--mode", "test");
  const jpegs = await Promise.all(Array.from({ length: 8 }, (_, i) => makeJpeg({ seed: i })));
  const response = await fetch(`${service.url}/api/v1/verify/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      documents: jpegs.map((jpeg) => Buffer.from(jpeg).toString("base64")),
      callbackUrl: receiver.url,
      callbackSecret: "0123456789abcdef",
    }),
  });
  expect(response.status).toBe(202);
  const { batchId } = (await response.json()).data;

  await eventually(() => (receiver.forBatch(batchId).length >= 2 ? true : undefined), 60_000, 20);
  await service.kill9();
  const deliveredBeforeCrash = new Set(receiver.forBatch(batchId).map((hook) => hook.body.documentIndex)).size;
  expect(deliveredBeforeCrash).toBeLessThan(8);

  service = await startService({ dataDir, env: envFor() });
  const indices = await eventually(() => {
    const seen = new Set(receiver.forBatch(batchId).map((hook) => hook.body.documentIndex));
    return seen.size === 8 ? seen : undefined;
  }, 90_000);
  expect([...indices].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

  // At least once: a duplicate carries the same delivery id and the same bytes.
  const byIndex = new Map<number, Set<string>>();
  for (const hook of receiver.forBatch(batchId))
    byIndex.set(hook.body.documentIndex, (byIndex.get(hook.body.documentIndex) ?? new Set()).add(hook.raw));
  for (const bodies of byIndex.values()) expect(bodies.size).toBe(1);

  const batch = await eventually(async () => {
    const data = (
      await (
        await fetch(`${service!.url}/api/v1/batches/${batchId}`, { headers: { authorization: `Bearer ${key}` } })
      ).json()
    ).data;
    return data.status === "completed" ? data : undefined;
  });
  expect(batch.completedCount).toBe(8);
  expect(batch.verificationIds).toHaveLength(8);
});

test("SIGTERM finishes work in flight and exits cleanly", async () => {
  const running = service!;
  service = undefined;
  expect(await running.stop()).toBe(0);
  expect(running.logs()).toContain('"message":"stopped"');
});
