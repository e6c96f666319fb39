// Idempotency keys with a controlled clock: expiry, a lock left by a process that died, and
// what a claim finds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ENGINES, openTestStore, type TestStore } from "../../helpers/store.ts";
import type { Store } from "../../../src/store/index.ts";

let opened: TestStore;
let store: Store;
const HOUR = 3_600_000;
const claim = (idempotencyKey: string, requestHash: string, now: number, keyId = "key_a") =>
  store.idempotency.claim({ keyId, idempotencyKey, requestHash, now, ttlMs: 24 * HOUR, lockMs: 10 * 60_000 });

describe.each(ENGINES)("on %s", (engine) => {
  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
  });
  afterAll(() => opened.close());

  describe("idempotency keys", () => {
    test("hold the first answer for 24 hours, then are free again", async () => {
      expect(await claim("k1", "h1", 0)).toEqual({ kind: "claimed" });
      await store.idempotency.complete("key_a", "k1", { status: 200, body: new TextEncoder().encode('{"data":1}') });
      const replay = await claim("k1", "h1", 23 * HOUR);
      expect(replay.kind).toBe("replay");
      if (replay.kind === "replay") expect(new TextDecoder().decode(replay.answer.body)).toBe('{"data":1}');
      expect(await claim("k1", "h2", 23 * HOUR)).toEqual({ kind: "mismatch" });
      expect(await claim("k1", "h2", 24 * HOUR)).toEqual({ kind: "claimed" });
    });

    test("are per API key", async () => {
      expect(await claim("k2", "h1", 0, "key_a")).toEqual({ kind: "claimed" });
      expect(await claim("k2", "h1", 0, "key_b")).toEqual({ kind: "claimed" });
    });

    test("block the same request while it is in progress, until its lock runs out or it is abandoned", async () => {
      expect(await claim("k3", "h1", 0)).toEqual({ kind: "claimed" });
      expect(await claim("k3", "h1", 1000)).toEqual({ kind: "in_progress", lockedUntil: 10 * 60_000 });
      expect(await claim("k3", "h2", 1000)).toEqual({ kind: "mismatch" });
      expect(await claim("k3", "h1", 10 * 60_000)).toEqual({ kind: "claimed" });
      await store.idempotency.abandon("key_a", "k3");
      expect(await claim("k3", "h2", 10 * 60_000 + 1)).toEqual({ kind: "claimed" });
    });

    test("left in progress by a process that died are freed at start-up; expired ones are swept", async () => {
      expect(await claim("k4", "h1", 0)).toEqual({ kind: "claimed" });
      expect(await store.idempotency.abandonAllInProgress()).toBeGreaterThanOrEqual(1);
      expect(await claim("k4", "h1", 1)).toEqual({ kind: "claimed" });
      await store.idempotency.complete("key_a", "k4", { status: 202, body: new Uint8Array([1]) });
      expect(await store.idempotency.deleteExpired(48 * HOUR)).toBeGreaterThanOrEqual(1);
      expect(await opened.read("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = 'k4'")).toEqual([
        { n: 0 },
      ]);
    });
  });
});
