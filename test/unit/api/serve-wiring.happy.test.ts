// `serve`'s own wiring (composeService in src/cli/serve.ts) driven in-process: the store it
// opens on a fresh SQLite data directory, the app over it through `app.handle`, and the batch
// worker and webhook dispatcher it starts, with only the analyser swapped for the in-thread
// structure and metadata detectors (the sidecar's models stay in test/integration/). The
// route tests build their app by hand (test/helpers/in-process-app.ts); this is where a deps
// field `serve` forgets, or a wake it does not pass on, shows without spawning a process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { composeService, type ComposedService } from "../../../src/cli/serve.ts";
import { loadConfig, type Config } from "../../../src/config.ts";
import type { AnalyzerDeps } from "../../../src/analysis/create-analyzer.ts";
import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { handle, inThreadAnalysisService, insertKey, json } from "../../helpers/in-process-app.ts";
import { eventually, newDataDir } from "../../helpers/service.ts";
import { makeTestCa, type TestTls } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";
import {
  expectAcknowledged,
  expectCompletedBatch,
  expectOneSignedWebhookPerDocument,
} from "../../helpers/batch-assertions.ts";

const SECRET = "a-callback-secret-of-some-length";
let tls: TestTls;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let config: Config;
let service: ComposedService;
/** What `serve` handed the analyser factory. */
let handed: AnalyzerDeps | undefined;
let key: string;

const compose = () =>
  composeService(config, {
    createAnalyzer: async (_config, _log, deps = {}) => {
      handed = deps;
      return inThreadAnalysisService(createLocalAnalyzer({ now: deps.now }));
    },
    writeLog: () => true,
    ca: tls.caPem,
  });

const request = (path: string, init: RequestInit = {}) => handle(service.app, path, { ...init, key });

const post = (path: string, body: object) => request(path, json(body));

beforeAll(async () => {
  tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls);
  config = loadConfig({
    DOCVERIFY_DATA_DIR: newDataDir(),
    DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
    // A poll this long never comes within the test: a batch moves only when the route wakes
    // the worker and the worker's recorded result nudges the dispatcher, as `serve` wires them.
    DOCVERIFY_OUTBOX_POLL_MS: "60000",
    DOCVERIFY_LOG_LEVEL: "error",
  });
  service = await compose();
  key = await insertKey(service.store, Date.now());
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

describe("serve's wiring", () => {
  test("hands the analyser the store's fingerprints and the process's clock", () => {
    expect(handed?.fingerprints).toBe(service.store.fingerprints);
    expect(Math.abs(handed!.now!() - Date.now())).toBeLessThan(5_000);
    expect(handed?.memory).toBeDefined();
  });

  test("answers liveness and readiness with the store, the analyser and intake checked", async () => {
    expect(await (await request("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: { store: expect.objectContaining({ ok: true }), analyzer: { ok: true }, accepting: { ok: true } },
    });
  });

  test("verifies a document under a key from the store, keeps the result, and counts it in /metrics", async () => {
    const pdf = Buffer.from(makePdf()).toString("base64");
    const verified = await post("/api/v1/verify", { document: pdf });
    expect(verified.status).toBe(200);
    const { data } = await verified.json();
    const id: string = data.id;
    expect(id).toMatch(/^ver_/);
    expect(data.sandbox).toBe(true);
    const stored = await request(`/api/v1/verifications/${id}`);
    expect(stored.status).toBe(200);
    expect((await stored.json()).data.id).toBe(id);
    // One registry: the analysis, the verify admission and the store's pool all report to it.
    const metrics = await (await request("/metrics")).text();
    expect(metrics).toContain('docverify_analysis_latency_seconds_count{format="pdf",document_type="financial"} 1');
    expect(metrics).toContain("docverify_verify_queue_wait_seconds_count 1");
    expect(metrics).toContain('docverify_database_pool_size{engine="sqlite"} 1');
  });

  test("runs a batch to its signed webhooks through the worker and dispatcher it started", async () => {
    await service.start();
    const documents = [
      Buffer.from(await makeJpeg()).toString("base64"),
      `data:application/pdf;base64,${Buffer.from(makePdf()).toString("base64")}`,
      Buffer.from("not a document").toString("base64"),
    ];
    const acknowledged = await post("/api/v1/verify/batch", {
      documents,
      callbackUrl: receiver.url,
      callbackSecret: SECRET,
    });
    const { batchId } = await expectAcknowledged(acknowledged, 3);
    const hooks = await eventually(() => {
      const delivered = receiver.forBatch(batchId);
      return delivered.length === 3 ? delivered : undefined;
    }, 15_000);
    await expectOneSignedWebhookPerDocument(hooks, SECRET, (timestamp) =>
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60),
    );
    const status = await eventually(async () => {
      const { data } = await (await request(`/api/v1/batches/${batchId}`)).json();
      return data.status === "completed" ? data : undefined;
    }, 5_000);
    expectCompletedBatch(status, batchId, hooks);
  });

  test("stops intake, then leaves the data directory to the next start with its keys", async () => {
    await service.stop();
    // The lock is released and the SQLite file closed: a second start opens the same directory.
    service = await compose();
    expect((await request("/readyz")).status).toBe(200);
    const verified = await post("/api/v1/verify", { document: Buffer.from(makePdf()).toString("base64") });
    expect(verified.status).toBe(200);
  });
});
