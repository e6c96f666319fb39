import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { batchWithOneFailedDocument, ENGINES, openTestStore, type TestStore } from "../../helpers/store.ts";
import type { Store } from "../../../src/store/index.ts";
import type { AnalysisReport } from "../../../src/analysis/report.ts";

let opened: TestStore;
let store: Store;

const report = { evidence: [], detectors: [] } as unknown as AnalysisReport;
const result = (id: string) => ({
  id,
  forgeryScore: 0,
  confidence: "high" as const,
  documentType: "unknown" as const,
  flags: [],
  latencyMs: 1,
});

describe.each(ENGINES)("on %s", (engine) => {
  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
  });
  afterAll(() => opened.close());

  test("expired results and finished batches go; recent ones and batches with pending deliveries stay", async () => {
    const day = 86_400_000;
    const now = 100 * day;
    await store.verifications.insert({ keyId: "k", result: result("ver_old"), report, createdAt: now - 40 * day });
    await store.verifications.insert({ keyId: "k", result: result("ver_new"), report, createdAt: now - 1 * day });

    const finished = await batchWithOneFailedDocument(store, now - 40 * day, "https://a.example");
    const [delivery] = await store.outbox.claimDue("d", now, 1000, 1);
    expect(
      await store.outbox.markDelivered(
        delivery!,
        "d",
        { startedAt: now, durationMs: 3, status: 200, error: null },
        now,
      ),
    ).toBe(true);
    expect((await store.outbox.listForBatch(finished))[0]!.attempts).toHaveLength(1);

    const undelivered = await batchWithOneFailedDocument(store, now - 40 * day, "https://a.example");

    const counts = await store.sweepExpired(now - 30 * day);
    expect(counts.verifications).toBe(1);
    expect(counts.batches).toBe(1);
    expect(await store.verifications.findForKey("ver_new", "k")).not.toBeNull();
    expect(await store.batches.get(finished)).toBeNull();
    expect(await store.outbox.listForBatch(finished)).toEqual([]);
    expect(await opened.read("SELECT COUNT(*) AS n FROM delivery_attempts")).toEqual([{ n: 0 }]);
    expect(await store.batches.get(undelivered)).not.toBeNull();
  });
});
