// Key secrets across rotations with a controlled clock, and the audit rows each change writes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ENGINES, openTestStore, type TestStore } from "../../helpers/store.ts";
import type { Store } from "../../../src/store/index.ts";

let opened: TestStore;
let store: Store;
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, seconds)).toISOString();

async function newKey(id: string): Promise<void> {
  await store.keys.insert(
    { id, mode: "live", plan: "paid", trialQuota: null, rateLimitPerSecond: 5, monthlyCap: 100, createdAt: at(0) },
    `${id}-hash-1`,
  );
}

describe.each(ENGINES)("on %s", (engine) => {
  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
  });
  afterAll(() => opened.close());

  describe("key rotation", () => {
    test("keeps the key and accepts the old secret until the grace ends", async () => {
      await newKey("key_a");
      expect(await store.keys.rotate("key_a", "key_a-hash-2", at(10), at(70))).toBe(true);
      expect(await store.keys.findByHash("key_a-hash-1", at(69))).toEqual({
        ok: true,
        keyHash: "key_a-hash-1",
        lastUsedAt: null,
        record: expect.objectContaining({ id: "key_a", rateLimitPerSecond: 5, monthlyCap: 100 }),
      });
      expect(await store.keys.findByHash("key_a-hash-1", at(70))).toEqual({
        ok: false,
        reason: "expired",
        keyId: "key_a",
      });
      expect(await store.keys.findByHash("key_a-hash-2", at(70))).toEqual(expect.objectContaining({ ok: true }));
      expect((await store.keys.list(at(69))).find((key) => key.id === "key_a")?.previousValidUntil).toBe(at(70));
      expect((await store.keys.list(at(70))).find((key) => key.id === "key_a")?.previousValidUntil).toBeNull();
    });

    test("a second rotation never lengthens an older secret's grace", async () => {
      await newKey("key_b");
      await store.keys.rotate("key_b", "key_b-hash-2", at(0), at(30));
      await store.keys.rotate("key_b", "key_b-hash-3", at(10), at(50));
      expect(await store.keys.findByHash("key_b-hash-1", at(31))).toEqual(
        expect.objectContaining({ ok: false, reason: "expired" }),
      );
      expect(await store.keys.findByHash("key_b-hash-2", at(49))).toEqual(expect.objectContaining({ ok: true }));
    });

    test("revoking by a rotated-out secret ends its grace; by the current one or the id, the key", async () => {
      await newKey("key_c");
      await store.keys.rotate("key_c", "key_c-hash-2", at(0), at(60));
      expect(await store.keys.revoke({ keyHash: "key_c-hash-1" }, at(5))).toEqual({
        kind: "grace_ended",
        keyId: "key_c",
      });
      expect(await store.keys.findByHash("key_c-hash-1", at(5))).toEqual(
        expect.objectContaining({ ok: false, reason: "expired" }),
      );
      expect(await store.keys.findByHash("key_c-hash-2", at(5))).toEqual(expect.objectContaining({ ok: true }));
      expect(await store.keys.revoke({ keyHash: "key_c-hash-2" }, at(6))).toEqual({ kind: "revoked", keyId: "key_c" });
      expect(await store.keys.findByHash("key_c-hash-2", at(6))).toEqual({
        ok: false,
        reason: "revoked",
        keyId: "key_c",
      });
      expect(await store.keys.rotate("key_c", "key_c-hash-3", at(7), at(8))).toBe(false);
      expect(await store.keys.revoke({ id: "key_missing" }, at(7))).toBeNull();
    });

    test("records last use at most once a minute", async () => {
      await newKey("key_d");
      const base = Date.parse(at(0));
      await store.keys.touch("key_d-hash-1", base);
      await store.keys.touch("key_d-hash-1", base + 30_000);
      expect((await store.keys.list(at(0))).find((key) => key.id === "key_d")?.lastUsedAt).toBe(at(0));
      // What findByHash read spares the write; a stale reading does not.
      await store.keys.touch("key_d-hash-1", base + 61_000, new Date(base + 30_000).toISOString());
      expect((await store.keys.list(at(0))).find((key) => key.id === "key_d")?.lastUsedAt).toBe(at(0));
      await store.keys.touch("key_d-hash-1", base + 61_000, at(0));
      expect((await store.keys.list(at(0))).find((key) => key.id === "key_d")?.lastUsedAt).toBe(
        new Date(base + 61_000).toISOString(),
      );
    });

    test("writes every lifecycle change to the audit log in its own transaction", async () => {
      const events = (await store.audit.list({ keyId: "key_c" })).map((entry) => entry.event);
      expect(events).toEqual(["key.created", "key.rotated", "key.grace_ended", "key.revoked"]);
      expect((await store.audit.list({ keyId: "key_a" }))[0]).toEqual(
        expect.objectContaining({
          event: "key.created",
          details: { mode: "live", plan: "paid", trialQuota: null, rateLimitPerSecond: 5, monthlyCap: 100 },
        }),
      );
    });
  });
});
