// A key's request rate holds across instances: two instances (two pools on one PostgreSQL
// database) taking tokens for one key at one moment draw on one bucket. A SQLite store
// belongs to one process: there, the concurrent requests are that one instance's.
import { expect, test } from "bun:test";
import { openStore } from "../../../src/store/index.ts";
import { ENGINES, openTestStore } from "../../helpers/store.ts";

const NOW = Date.UTC(2026, 10, 26);

test.each(ENGINES)(
  "on %s, a rate of N/s admits N requests a second across two instances at once",
  async (engine) => {
    const first = await openTestStore(engine);
    const second =
      engine === "postgres" ? await openStore({ dataDir: first.dataDir, databaseUrl: first.databaseUrl }) : first.store;
    try {
      const burst = (at: number, count: number) =>
        Promise.all(
          Array.from({ length: count }, (_, i) => (i % 2 === 0 ? first.store : second).rateLimits.take("key_a", 5, at)),
        );

      const opening = await burst(NOW, 20);
      expect(opening.filter((decision) => decision.ok)).toHaveLength(5);
      expect(opening.find((decision) => !decision.ok)).toEqual({ ok: false, retryAfterSec: 1 });

      // 400 ms later two tokens have come back; a second later the bucket is full again, not
      // fuller.
      expect((await burst(NOW + 400, 10)).filter((decision) => decision.ok)).toHaveLength(2);
      expect((await burst(NOW + 5000, 10)).filter((decision) => decision.ok)).toHaveLength(5);
      // Another key has a bucket of its own.
      expect(await second.rateLimits.take("key_b", 5, NOW + 5000)).toEqual({ ok: true });
      // A clock a little behind the one that wrote the bucket gives nothing back and takes nothing
      // extra.
      expect((await burst(NOW + 4900, 3)).filter((decision) => decision.ok)).toHaveLength(0);
    } finally {
      if (second !== first.store) await second.close();
      await first.close();
    }
  },
  60_000,
);

test.each(ENGINES)("on %s, a rate below one a second waits for the whole token", async (engine) => {
  const opened = await openTestStore(engine);
  try {
    const { rateLimits } = opened.store;
    expect(await rateLimits.take("key_slow", 0.5, NOW)).toEqual({ ok: true });
    expect(await rateLimits.take("key_slow", 0.5, NOW + 1000)).toEqual({ ok: false, retryAfterSec: 1 });
    expect(await rateLimits.take("key_slow", 0.5, NOW + 2000)).toEqual({ ok: true });
  } finally {
    await opened.close();
  }
});
