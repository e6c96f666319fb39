// What /readyz and /metrics read from the store: whether the database answers (and, when it
// does not, why), and this process's connections.
import { expect, test } from "bun:test";
import { ENGINES, openTestStore } from "../../helpers/store.ts";

test.each(ENGINES)("on %s, the store says whether the database answers and how busy its pool is", async (engine) => {
  const opened = await openTestStore(engine);
  const { store } = opened;
  try {
    const ping = await store.ping();
    expect(ping.ok).toBe(true);
    expect(ping.detail).toMatch(new RegExp(`^${engine}, schema ${store.schema.current}, answered in \\d+ ms$`));
    const pool = store.pool();
    expect(pool).toMatchObject({ size: engine === "sqlite" ? 1 : 10, busy: 0 });
    expect(pool.open).toBeGreaterThanOrEqual(1);
    expect(pool.open).toBeLessThanOrEqual(pool.size);
    // Work under way is counted until it finishes.
    const nowIso = new Date().toISOString();
    const pending = Promise.all([store.keys.list(nowIso), store.outbox.counts(), store.batches.pendingDocuments()]);
    expect(store.pool().busy).toBe(3);
    await pending;
    expect(store.pool().busy).toBe(0);
  } finally {
    await opened.close();
  }
  const closed = await store.ping();
  expect(closed.ok).toBe(false);
  expect(closed.detail).toStartWith(`${engine}: `);
});
