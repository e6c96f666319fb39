// A process claiming work from a shared store as a `serve` instance would, with several lanes
// at once: every batch document it can get (recording a failure for each, which queues its
// webhook), then every delivery it can get. Prints what it took as one JSON line.
// Usage: bun claim-worker.ts DATA_DIR DATABASE_URL LANES START_AT_MS
import { randomUUID } from "node:crypto";
import { openStore } from "../../src/store/index.ts";

const [dataDir, databaseUrl, lanes, startAt] = process.argv.slice(2);
const store = await openStore({ dataDir: dataDir!, databaseUrl: databaseUrl!, secretKeys: [process.env.SECRET_KEY!] });
const owner = `claimer-${randomUUID()}`;
const documents: string[] = [];
const deliveries: string[] = [];
const now = () => Date.now();

async function claimDocuments(): Promise<void> {
  for (;;) {
    const claimed = await store.batches.claimNext(owner, now(), 60_000);
    if (!claimed) return;
    documents.push(`${claimed.batch.id}/${claimed.documentIndex}`);
    const outcome = { ok: false as const, error: { code: "UNSUPPORTED_FORMAT" as const, message: "stress" } };
    if (
      !(await store.batches.recordOutcome({
        batch: claimed.batch,
        documentIndex: claimed.documentIndex,
        owner,
        keyId: claimed.batch.keyId,
        outcome,
        now: now(),
      }))
    ) {
      throw new Error("a lease was lost inside its lifetime");
    }
  }
}

async function claimDeliveries(): Promise<void> {
  for (;;) {
    const due = await store.outbox.claimDue(owner, now(), 60_000, 3);
    if (due.length === 0) return;
    for (const delivery of due) {
      deliveries.push(delivery.deliveryId);
      if (
        !(await store.outbox.markDelivered(
          delivery,
          owner,
          { startedAt: now(), durationMs: 1, status: 200, error: null },
          now(),
        ))
      ) {
        throw new Error("a lease was lost inside its lifetime");
      }
    }
  }
}

const parallel = (work: () => Promise<void>) => Promise.all(Array.from({ length: Number(lanes) }, work));
// Both processes start claiming at one moment, whichever opened its store first.
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()));
await parallel(claimDocuments);
// The other process may still be recording outcomes: its deliveries appear meanwhile.
await Bun.sleep(500);
await parallel(claimDeliveries);
await store.close();
console.log(JSON.stringify({ documents, deliveries }));
