// Trial quotas and monthly caps hold exactly when two instances (two pools) reserve for one
// key at the same moment. A SQLite store belongs to one process: there, the concurrent
// requests are that one instance's.
import { expect, test } from "bun:test";
import { openStore } from "../../../src/store/index.ts";
import { ENGINES, openTestStore } from "../../helpers/store.ts";

const NOW = Date.UTC(2026, 10, 26);

test.each(ENGINES)(
  "on %s, a quota of N allows exactly N documents across two instances at once",
  async (engine) => {
    const first = await openTestStore(engine);
    const second =
      engine === "postgres" ? await openStore({ dataDir: first.dataDir, databaseUrl: first.databaseUrl }) : first.store;
    try {
      await first.store.keys.insert(
        {
          id: "key_trial",
          mode: "live",
          plan: "trial",
          trialQuota: 10,
          rateLimitPerSecond: null,
          monthlyCap: null,
          createdAt: new Date(NOW).toISOString(),
        },
        "hash-trial",
      );
      const trial = { trialQuota: 10, monthlyCap: null, pricePerDocument: 0.1 };
      const capped = { trialQuota: null, monthlyCap: 1.2, pricePerDocument: 0.1 };
      const attempts = (keyId: string, limits: typeof trial | typeof capped) =>
        Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (i % 2 === 0 ? first.store : second).usage.reserve(keyId, 1, limits, NOW),
          ),
        );

      const trialOutcomes = await attempts("key_trial", trial);
      expect(trialOutcomes.filter((outcome) => outcome.ok)).toHaveLength(10);
      expect(trialOutcomes.filter((outcome) => !outcome.ok && outcome.reason === "trial_exhausted")).toHaveLength(20);

      // 1.20 at 0.10 a document: twelve documents, and not a thirteenth.
      const cappedOutcomes = await attempts("key_trial", capped);
      expect(cappedOutcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    } finally {
      if (second !== first.store) await second.close();
      await first.close();
    }
  },
  60_000,
);
