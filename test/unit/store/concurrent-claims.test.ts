// Two processes claiming from one store at once, several lanes each: every batch document and
// every webhook delivery goes to exactly one of them. Bounded: 120 documents, one minute.
import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { ENGINES, openTestStore } from "../../helpers/store.ts";

const WORKER = resolve(import.meta.dir, "../../helpers/claim-worker.ts");
const DOCUMENTS_PER_BATCH = 30;
const BATCHES = 4;
const SECRET_KEY = randomBytes(32).toString("base64");

test.each(ENGINES)(
  "on %s, concurrent claimers from two processes never take one row twice",
  async (engine) => {
    // The claimers open the callback secrets this process seals: one key for all.
    const opened = await openTestStore(engine, { secretKeys: [SECRET_KEY] });
    try {
      for (let b = 0; b < BATCHES; b++) {
        const documents = Array.from({ length: DOCUMENTS_PER_BATCH }, (_, i) => new Uint8Array([b, i]));
        await opened.store.batches.create({
          keyId: "k",
          sandbox: true,
          callbackUrl: "https://a.example/hooks",
          callbackSecret: "0123456789abcdef",
          documents,
          now: 0,
        });
      }

      const startAt = String(Date.now() + 3000);
      const claimers = Array.from({ length: 2 }, () =>
        Bun.spawn([process.execPath, WORKER, opened.dataDir, opened.databaseUrl, "4", startAt], {
          env: { ...process.env, SECRET_KEY },
          stdout: "pipe",
          stderr: "pipe",
        }),
      );
      const results = await Promise.all(
        claimers.map(async (child) => {
          const [stdout, stderr, code] = await Promise.all([
            new Response(child.stdout).text(),
            new Response(child.stderr).text(),
            child.exited,
          ]);
          if (code !== 0) throw new Error(`claimer failed: ${stderr}`);
          return JSON.parse(stdout.trim().split("\n").at(-1)!) as { documents: string[]; deliveries: string[] };
        }),
      );

      const total = DOCUMENTS_PER_BATCH * BATCHES;
      const documents = results.flatMap((result) => result.documents);
      const deliveries = results.flatMap((result) => result.deliveries);
      expect(documents).toHaveLength(total);
      expect(new Set(documents).size).toBe(total);
      expect(deliveries).toHaveLength(total);
      expect(new Set(deliveries).size).toBe(total);
      // Both took part: the claims really were concurrent. (SQLite has one writer at a time, and
      // its busy handler may let one process take every row: still correct, but no evidence.)
      if (engine === "postgres") for (const result of results) expect(result.documents.length).toBeGreaterThan(0);
    } finally {
      await opened.close();
    }
  },
  60_000,
);
