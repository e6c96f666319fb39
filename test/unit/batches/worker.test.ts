// The batch worker stepped with processNext() on a real SQLite store and a manual clock:
// outcomes recorded with their webhooks, the backoff of a document whose analyser cannot
// answer, the give-up after repeated unexpected failures, and the lease a dead worker leaves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AppError } from "../../../src/errors.ts";
import type { Analyzer } from "../../../src/analysis/analyzer.ts";
import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { json, type InProcessApp } from "../../helpers/in-process-app.ts";
import { drainWorker, workerOf } from "../../helpers/in-process-workers.ts";
import { startBatchApp } from "../../helpers/batch-app.ts";

const SECRET = "a-callback-secret-of-some-length";
let service: InProcessApp;
let key: string;
let jpeg64: string;

async function submit(documents: string[], apiKey = key): Promise<string> {
  const response = await service.request(
    "/api/v1/verify/batch",
    json({ documents, callbackUrl: "https://hooks.example.com/x", callbackSecret: SECRET }, { key: apiKey }),
  );
  expect(response.status).toBe(202);
  return (await response.json()).data.batchId;
}

const documentRow = async (batchId: string) =>
  (
    await service.testStore.read<{
      state: string;
      attempts: number;
      not_before: number;
      lease_owner: string | null;
      lease_until: number;
    }>(
      `SELECT state, attempts, not_before, lease_owner, lease_until FROM batch_documents WHERE batch_id = '${batchId}'`,
    )
  )[0]!;

const outboxBodies = async (batchId: string) =>
  (await service.testStore.read<{ body: Uint8Array }>(`SELECT body FROM outbox WHERE batch_id = '${batchId}'`)).map(
    (row) => JSON.parse(Buffer.from(row.body).toString()),
  );

/**
 * Test doubles for the two failures the worker must tell apart; the analysis itself cannot
 * be made to fail on cue. Each fails `times` times, then hands over to the real analysis.
 */
const failing = (times: number, error: () => Error): Analyzer & { calls: number } => {
  const real = createLocalAnalyzer({ now: () => service.clock.now() });
  const analyzer = {
    calls: 0,
    analyze: async (...args: Parameters<Analyzer["analyze"]>) => {
      analyzer.calls++;
      if (analyzer.calls <= times) throw error();
      return real.analyze(args[0]);
    },
  };
  return analyzer;
};
const unavailable = () => new AppError("SERVICE_UNAVAILABLE", "sidecar down", { retryable: true, retryAfterSec: 1 });

beforeAll(async () => {
  ({ service, key, jpeg64 } = await startBatchApp());
});

afterAll(async () => {
  await service?.close();
});

describe("the batch worker", () => {
  test("records each document's outcome with its webhook, and completes the batch", async () => {
    const batchId = await submit([jpeg64, Buffer.from("not a document").toString("base64")]);
    expect(await drainWorker(workerOf(service))).toBe(2);
    const batch = (await (await service.request(`/api/v1/batches/${batchId}`, { key })).json()).data;
    expect(batch).toMatchObject({ totalDocuments: 2, completedCount: 2, failedCount: 1, status: "completed" });
    const bodies = await outboxBodies(batchId);
    expect(bodies.map((body) => body.documentIndex).sort()).toEqual([0, 1]);
    const analysed = bodies.find((body) => body.documentIndex === 0)!;
    expect(analysed.result.sandbox).toBe(true);
    expect(batch.verificationIds).toEqual([analysed.result.id]);
    expect(bodies.find((body) => body.documentIndex === 1)!.error).toEqual({
      code: "UNSUPPORTED_FORMAT",
      message: expect.any(String),
    });
  });

  test("hands back a document whose analyser cannot answer, retrying after 2 s, 4 s, 8 s … up to a minute, never dropping it", async () => {
    const batchId = await submit([jpeg64]);
    const analyzer = failing(8, unavailable);
    const worker = workerOf(service, { analyzer });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await worker.processNext()).toBe(true);
      const row = await documentRow(batchId);
      expect(row).toMatchObject({ state: "pending", attempts: attempt, lease_owner: null });
      const delay = row.not_before - service.clock.now();
      delays.push(delay);
      // Not a millisecond early.
      service.clock.advance(delay - 1);
      expect(await worker.processNext()).toBe(false);
      service.clock.advance(1);
    }
    expect(delays).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(await worker.processNext()).toBe(true);
    expect((await documentRow(batchId)).state).toBe("done");
    expect(await outboxBodies(batchId)).toHaveLength(1);
  });

  test("gives up on a document that fails unexpectedly three times, and gives its trial document back", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 1 });
    const batchId = await submit([jpeg64], trial);
    const analyzer = failing(100, () => new TypeError("a bug"));
    const worker = workerOf(service, { analyzer });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await worker.processNext()).toBe(true);
      service.clock.advance(60_000);
    }
    expect(analyzer.calls).toBe(3);
    expect((await documentRow(batchId)).state).toBe("failed");
    expect(await outboxBodies(batchId)).toEqual([
      {
        batchId,
        documentIndex: 0,
        error: { code: "UNSUPPORTED_FORMAT", message: "The document could not be analysed" },
      },
    ]);
    expect(service.logs.some((line) => line.message === "batch document failed repeatedly")).toBe(true);
    // The failed document no longer counts against the trial of one.
    await submit([jpeg64], trial);
    expect(await drainWorker(workerOf(service))).toBe(1);
  });

  test("takes up a dead worker's document once its lease runs out, and records it once", async () => {
    const batchId = await submit([jpeg64]);
    const leaseMs = service.deps.config.leaseMs;
    const dead = await service.deps.store.batches.claimNext("dead-worker", service.clock.now(), leaseMs);
    expect(dead?.batch.id).toBe(batchId);
    const worker = workerOf(service);
    service.clock.advance(leaseMs - 1);
    expect(await worker.processNext()).toBe(false);
    service.clock.advance(1);
    expect(await worker.processNext()).toBe(true);
    expect((await documentRow(batchId)).state).toBe("done");
    // The dead worker, back from the grave, cannot record a second outcome.
    const late = await service.deps.store.batches.recordOutcome({
      batch: dead!.batch,
      documentIndex: 0,
      owner: "dead-worker",
      keyId: dead!.batch.keyId,
      outcome: { ok: false, error: { code: "UNSUPPORTED_FORMAT", message: "late" } },
      now: service.clock.now(),
    });
    expect(late).toBe(false);
    expect(await outboxBodies(batchId)).toHaveLength(1);
  });

  test("renews its lease while it works, so a slow analysis is not taken by another worker", async () => {
    const batchId = await submit([jpeg64]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const real = createLocalAnalyzer({ now: () => service.clock.now() });
    // The real analysis, held until the test lets it finish.
    const slow: Analyzer = {
      analyze: async (document) => {
        await held;
        return real.analyze(document);
      },
    };
    // Renewal runs on a timer of a third of the lease: 10 ms here.
    const busy = workerOf(service, { analyzer: slow, leaseMs: 30 });
    const working = busy.processNext();
    while ((await documentRow(batchId)).lease_owner === null) await Bun.sleep(1);
    service.clock.advance(60_000);
    while ((await documentRow(batchId)).lease_until <= service.clock.now()) await Bun.sleep(5);
    expect(await workerOf(service, { leaseMs: 30 }).processNext()).toBe(false);
    release();
    expect(await working).toBe(true);
    expect((await documentRow(batchId)).state).toBe("done");
    expect(await outboxBodies(batchId)).toHaveLength(1);
  });
});

describe("the batch worker's lanes", () => {
  test("take a new document when woken, not at their next poll a minute later", async () => {
    const worker = workerOf(service, { pollMs: 60_000 });
    worker.start();
    try {
      await Bun.sleep(10);
      const batchId = await submit([jpeg64]);
      worker.wake();
      const deadline = Date.now() + 10_000;
      while ((await documentRow(batchId)).state === "pending" && Date.now() < deadline) await Bun.sleep(5);
      expect((await documentRow(batchId)).state).toBe("done");
    } finally {
      await worker.stop();
    }
  });

  test("stop() waits for the document in flight to be recorded, and claims nothing after", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const real = createLocalAnalyzer({ now: () => service.clock.now() });
    let started = 0;
    // The real analysis, held until the test lets it finish.
    const slow: Analyzer = {
      analyze: async (document) => {
        started++;
        await held;
        return real.analyze(document);
      },
    };
    const worker = workerOf(service, { analyzer: slow, pollMs: 60_000 });
    const batchId = await submit([jpeg64]);
    worker.start();
    while (started === 0) await Bun.sleep(1);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    const second = await submit([jpeg64]);
    await Bun.sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await documentRow(batchId)).state).toBe("done");
    expect(await outboxBodies(batchId)).toHaveLength(1);
    expect(await documentRow(second)).toMatchObject({ state: "pending", attempts: 0 });
    expect(await drainWorker(workerOf(service))).toBe(1);
  });
});
