// Two `serve` processes on one PostgreSQL (the embedded one of test/helpers/postgres.ts)
// sharing one sidecar, as docs/deploy/compose.yaml runs them: keys, rates and quotas hold
// across both, and a batch survives the instance it was sent to being killed with SIGKILL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { randomBytes } from "node:crypto";
import { eventually, startService, type TestService } from "../../helpers/service.ts";
import { startSidecarProcess, type SidecarProcess } from "../../helpers/sidecar-process.ts";
import { makeTestCa, type TestTls } from "../../helpers/tls.ts";
import type { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { killMidBatchEnv, startSlowWebhookReceiver } from "../../helpers/kill-mid-batch.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";
import { newDatabaseUrl } from "../../helpers/postgres.ts";

const DOCUMENTS = 8;

let tls: TestTls;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let sidecar: SidecarProcess;
let databaseUrl: string;
let shell: SQL;
let first: TestService;
let second: TestService;
let env: Record<string, string>;

beforeAll(async () => {
  tls = await makeTestCa();
  receiver = await startSlowWebhookReceiver(tls);
  [sidecar, databaseUrl] = await Promise.all([startSidecarProcess(), newDatabaseUrl()]);
  shell = new SQL({ url: databaseUrl, max: 1 });
  env = {
    DOCVERIFY_DATABASE_URL: databaseUrl,
    DOCVERIFY_SECRET_KEY: randomBytes(32).toString("base64"),
    DOCVERIFY_SIDECAR: sidecar.address,
    ...killMidBatchEnv(tls),
  };
  // Each instance has a data directory of its own: nothing in it is shared.
  [first, second] = await Promise.all([startService({ env }), startService({ env })]);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await sidecar?.stop();
  await shell?.close();
  receiver?.stop();
});

const jpegs = () => Promise.all(Array.from({ length: DOCUMENTS }, (_, i) => makeJpeg({ seed: i })));
const authorized = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
/** Any authenticated route: 404 for a batch that does not exist, 401 for a refused key. */
const statusWith = async (service: TestService, key: string) =>
  (await fetch(`${service.url}/api/v1/batches/00000000-0000-4000-8000-000000000000`, { headers: authorized(key) }))
    .status;

test("the instances, started together on an empty database, migrated it once between them", () => {
  const migrated = [first, second].filter((service) => service.logs().includes('"message":"database schema migrated"'));
  expect(migrated).toHaveLength(1);
});

test("both instances report the shared database in /readyz and their pools in /metrics", async () => {
  for (const service of [first, second]) {
    const body = await eventually(async () => {
      const ready = await fetch(`${service.url}/readyz`);
      return ready.status === 200 ? ready.json() : undefined;
    }, 90_000);
    expect(body.checks.store).toEqual({
      ok: true,
      detail: expect.stringMatching(/^postgres, schema \d+, answered in \d+ ms$/),
    });
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain('docverify_database_pool_size{engine="postgres"} 10');
    expect(metrics).toMatch(/^docverify_database_connections_open\{engine="postgres"\} [1-9]\d*$/m);
  }
}, 100_000);

test("a key created through the CLI works on both instances, and once revoked the other refuses it within 1 s", async () => {
  const key = await first.createKey("--mode", "test");
  expect([await statusWith(first, key), await statusWith(second, key)]).toEqual([404, 404]);
  const id = /key_[0-9a-f]{16}/.exec((await first.cli("keys", "list")).stdout)![0];

  const revoked = await first.cli("keys", "revoke", id);
  expect(revoked.exitCode).toBe(0);
  const at = performance.now();
  await eventually(async () => ((await statusWith(second, key)) === 401 ? true : undefined), 1000, 20);
  expect(performance.now() - at).toBeLessThan(1000);
  expect(await statusWith(first, key)).toBe(401);
});

test("a request rate holds across both instances: one bucket per key, not one per instance", async () => {
  const key = await first.createKey("--mode", "test", "--rate-limit", "2/s");
  // Per-instance buckets would admit 2 on each; one shared bucket admits 2 in all, and a
  // third only if the burst took longer than half a second on a busy machine.
  const statuses = await Promise.all(
    Array.from({ length: 8 }, (_, i) => statusWith(i % 2 === 0 ? first : second, key)),
  );
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
  expect(statuses.filter((status) => status !== 429).every((status) => status === 404)).toBe(true);
});

test("a trial quota of N allows exactly N documents across both instances hit at once", async () => {
  const quota = 3;
  const key = await first.createKey("--mode", "live", "--plan", "trial", "--trial-quota", String(quota));
  const documents = await jpegs();
  const statuses = await Promise.all(
    documents.map(async (jpeg, i) => {
      const service = i % 2 === 0 ? first : second;
      const response = await fetch(`${service.url}/api/v1/verify`, {
        method: "POST",
        headers: authorized(key),
        body: JSON.stringify({ document: Buffer.from(jpeg).toString("base64") }),
      });
      return response.status;
    }),
  );
  expect(statuses.filter((status) => status === 200)).toHaveLength(quota);
  expect(statuses.filter((status) => status === 402)).toHaveLength(DOCUMENTS - quota);
}, 90_000);

test("a batch sent to one instance, killed with SIGKILL mid-batch, is finished by the other: each document delivered under one delivery id", async () => {
  const key = await first.createKey("--mode", "test");
  const response = await fetch(`${first.url}/api/v1/verify/batch`, {
    method: "POST",
    headers: authorized(key),
    body: JSON.stringify({
      documents: (await jpegs()).map((jpeg) => Buffer.from(jpeg).toString("base64")),
      callbackUrl: receiver.url,
      callbackSecret: "0123456789abcdef",
    }),
  });
  expect(response.status).toBe(202);
  const { batchId } = (await response.json()).data;

  await eventually(() => (receiver.forBatch(batchId).length >= 2 ? true : undefined), 60_000, 20);
  await first.kill9();
  expect(new Set(receiver.forBatch(batchId).map((hook) => hook.body.documentIndex)).size).toBeLessThan(DOCUMENTS);

  const batch = await eventually(async () => {
    const data = (await (await fetch(`${second.url}/api/v1/batches/${batchId}`, { headers: authorized(key) })).json())
      .data;
    const delivered = new Set(receiver.forBatch(batchId).map((hook) => hook.body.documentIndex));
    return data.status === "completed" && delivered.size === DOCUMENTS ? data : undefined;
  }, 90_000);
  expect(batch.completedCount).toBe(DOCUMENTS);
  expect(new Set(batch.verificationIds).size).toBe(DOCUMENTS);

  // The receiver counts a delivery when it arrives; the sender records it once answered.
  await eventually(async () => {
    const [{ unfinished }] =
      await shell`SELECT COUNT(*)::int AS unfinished FROM outbox WHERE batch_id = ${batchId} AND state <> 'delivered'`;
    return unfinished === 0 ? true : undefined;
  }, 30_000);

  // Every document analysed into one result, and delivered under one delivery id; a delivery
  // sent twice (the killed instance sent it but never recorded it) carries the same bytes.
  const results = await shell`SELECT document_index FROM verifications WHERE batch_id = ${batchId}`;
  expect(
    results
      .map((row: { document_index: number | bigint }) => Number(row.document_index))
      .sort((a: number, b: number) => a - b),
  ).toEqual([...Array(DOCUMENTS).keys()]);
  const bodiesOf = new Map<string, Set<string>>();
  const deliveriesOf = new Map<number, Set<string>>();
  for (const hook of receiver.forBatch(batchId)) {
    bodiesOf.set(hook.deliveryId!, (bodiesOf.get(hook.deliveryId!) ?? new Set()).add(hook.raw));
    deliveriesOf.set(
      hook.body.documentIndex,
      (deliveriesOf.get(hook.body.documentIndex) ?? new Set()).add(hook.deliveryId!),
    );
  }
  expect(bodiesOf.size).toBe(DOCUMENTS);
  for (const bodies of bodiesOf.values()) expect(bodies.size).toBe(1);
  expect(deliveriesOf.size).toBe(DOCUMENTS);
  for (const ids of deliveriesOf.values()) expect(ids.size).toBe(1);
}, 120_000);
