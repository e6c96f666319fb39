import { afterAll, expect, test } from "bun:test";
import { createStore } from "../../../src/store";
import { sweepExpired } from "../../../src/store/retention";
import { newDataDir } from "../../helpers/service";
import type { AnalysisReport } from "../../../src/analysis/report";

const store = createStore(newDataDir());
afterAll(() => store.close());

const report = { evidence: [], detectors: [] } as unknown as AnalysisReport;
const result = (id: string) => ({ id, forgeryScore: 0, confidence: "high" as const, documentType: "unknown" as const, flags: [], latencyMs: 1 });

test("expired results and finished batches go; recent ones and batches with pending deliveries stay", () => {
  const day = 86_400_000;
  const now = 100 * day;
  store.verifications.insert({ keyId: "k", result: result("ver_old"), report, createdAt: now - 40 * day });
  store.verifications.insert({ keyId: "k", result: result("ver_new"), report, createdAt: now - 1 * day });

  const finished = store.batches.create({ keyId: "k", sandbox: true, callbackUrl: "https://a.example", callbackSecret: "0123456789abcdef", documents: [new Uint8Array([1])], now: now - 40 * day });
  const claimed = store.batches.claimNext("w", now - 40 * day, 1000)!;
  store.batches.recordOutcome({ batch: claimed.batch, documentIndex: 0, owner: "w", keyId: "k", outcome: { ok: false, error: { code: "UNSUPPORTED_FORMAT", message: "x" } }, now: now - 40 * day });
  const [delivery] = store.outbox.claimDue("d", now, 1000, 1);
  expect(store.outbox.markDelivered(delivery!, "d", { startedAt: now, durationMs: 3, status: 200, error: null }, now)).toBe(true);
  expect(store.outbox.listForBatch(finished.id)[0]!.attempts).toHaveLength(1);

  const undelivered = store.batches.create({ keyId: "k", sandbox: true, callbackUrl: "https://a.example", callbackSecret: "0123456789abcdef", documents: [new Uint8Array([1])], now: now - 40 * day });
  const second = store.batches.claimNext("w", now - 40 * day, 1000)!;
  store.batches.recordOutcome({ batch: second.batch, documentIndex: 0, owner: "w", keyId: "k", outcome: { ok: false, error: { code: "UNSUPPORTED_FORMAT", message: "x" } }, now: now - 40 * day });

  const counts = sweepExpired(store, now - 30 * day);
  expect(counts.verifications).toBe(1);
  expect(counts.batches).toBe(1);
  expect(store.verifications.findForKey("ver_new", "k")).not.toBeNull();
  expect(store.batches.get(finished.id)).toBeNull();
  expect(store.outbox.listForBatch(finished.id)).toEqual([]);
  expect(store.db.query("SELECT COUNT(*) AS n FROM delivery_attempts").get()).toEqual({ n: 0 });
  expect(store.batches.get(undelivered.id)).not.toBeNull();
});
