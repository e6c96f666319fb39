// The outbox's state machine with a controlled clock: scheduled attempts, redeliveries and
// lost leases, each attempt logged in the transaction that records its outcome.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { batchWithOneFailedDocument, ENGINES, openTestStore, type TestStore } from "../../helpers/store.ts";
import type { Store } from "../../../src/store/index.ts";

let opened: TestStore;
let store: Store;

let clock = 1_000_000;

/** A batch with one failed document, so its outbox holds one delivery due at `clock`. */
const batchWithDelivery = () => batchWithOneFailedDocument(store, clock);

const attempt = (status: number | null) => ({
  startedAt: clock,
  durationMs: 12,
  status,
  error: status === null ? "connect ECONNREFUSED" : null,
});

describe.each(ENGINES)("on %s", (engine) => {
  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
  });
  afterAll(() => opened.close());

  describe("the outbox", () => {
    test("a failed scheduled attempt schedules the next one; a redelivery outside the schedule leaves it as it was", async () => {
      const batchId = await batchWithDelivery();
      const [first] = await store.outbox.claimDue("d", clock, 1000, 10);
      expect(first).toEqual(
        expect.objectContaining({ batchId, attempts: 1, redeliverAt: null, callbackSecret: "0123456789abcdef" }),
      );
      expect(
        await store.outbox.markFailed(
          first!,
          "d",
          attempt(503),
          { error: "receiver answered 503" },
          clock + 60_000,
          clock,
        ),
      ).toBe(true);
      let [log] = await store.outbox.listForBatch(batchId);
      expect(log).toEqual({
        deliveryId: first!.deliveryId,
        documentIndex: 0,
        state: "pending",
        attempts: [{ attempt: 1, kind: "scheduled", ...attempt(503) }],
        nextAttemptAt: clock + 60_000,
      });

      clock += 1000;
      expect(await store.outbox.requestRedelivery(batchId, first!.deliveryId, clock)).toBe(true);
      expect((await store.outbox.listForBatch(batchId))[0]!.nextAttemptAt).toBe(clock);
      const [again] = await store.outbox.claimDue("d", clock, 1000, 10);
      // Not counted against the retry schedule.
      expect(again).toEqual(
        expect.objectContaining({ deliveryId: first!.deliveryId, attempts: 1, redeliverAt: clock }),
      );
      expect(
        await store.outbox.markFailed(again!, "d", attempt(null), { error: "connect ECONNREFUSED" }, null, clock),
      ).toBe(true);
      [log] = await store.outbox.listForBatch(batchId);
      expect(log!.state).toBe("pending");
      expect(log!.nextAttemptAt).toBe(clock - 1000 + 60_000);
      expect(log!.attempts.map((a) => [a.attempt, a.kind, a.status, a.error])).toEqual([
        [1, "scheduled", 503, null],
        [2, "redelivery", null, "connect ECONNREFUSED"],
      ]);
      expect(await store.outbox.claimDue("d", clock, 1000, 10)).toEqual([]);

      // The schedule resumes where it was: the second scheduled attempt succeeds.
      clock += 60_000;
      const [scheduled] = await store.outbox.claimDue("d", clock, 1000, 10);
      expect(scheduled).toEqual(expect.objectContaining({ attempts: 2, redeliverAt: null }));
      expect(await store.outbox.markDelivered(scheduled!, "d", { ...attempt(200), status: 200 }, clock)).toBe(true);
      [log] = await store.outbox.listForBatch(batchId);
      expect(log!.state).toBe("delivered");
      expect(log!.nextAttemptAt).toBeNull();
      expect(log!.attempts).toHaveLength(3);
    });

    test("a redelivery of a failed delivery that succeeds marks it delivered", async () => {
      const batchId = await batchWithDelivery();
      const [claimed] = await store.outbox.claimDue("d", clock, 1000, 10);
      await store.outbox.markFailed(claimed!, "d", attempt(500), { error: "receiver answered 500" }, null, clock);
      expect((await store.outbox.listForBatch(batchId))[0]!.state).toBe("failed");
      await store.outbox.requestRedelivery(batchId, claimed!.deliveryId, clock);
      const [again] = await store.outbox.claimDue("d", clock, 1000, 10);
      await store.outbox.markDelivered(again!, "d", { ...attempt(204), status: 204 }, clock);
      expect((await store.outbox.listForBatch(batchId))[0]).toEqual(
        expect.objectContaining({ state: "delivered", nextAttemptAt: null }),
      );
    });

    test("a redelivery asked for while an attempt is in flight is made after it", async () => {
      const batchId = await batchWithDelivery();
      const [inFlight] = await store.outbox.claimDue("d", clock, 1000, 10);
      await store.outbox.requestRedelivery(batchId, inFlight!.deliveryId, clock);
      // Leased: not claimed twice at once.
      expect(await store.outbox.claimDue("d", clock, 1000, 10)).toEqual([]);
      await store.outbox.markDelivered(inFlight!, "d", { ...attempt(200), status: 200 }, clock);
      const [redelivery] = await store.outbox.claimDue("d", clock, 1000, 10);
      expect(redelivery).toEqual(expect.objectContaining({ deliveryId: inFlight!.deliveryId, redeliverAt: clock }));
      await store.outbox.markDelivered(redelivery!, "d", { ...attempt(200), status: 200 }, clock);
      expect((await store.outbox.listForBatch(batchId))[0]!.attempts.map((a) => a.kind)).toEqual([
        "scheduled",
        "redelivery",
      ]);
      expect(await store.outbox.claimDue("d", clock, 1000, 10)).toEqual([]);
    });

    test("an outcome whose lease was lost is neither recorded nor logged", async () => {
      const batchId = await batchWithDelivery();
      const [claimed] = await store.outbox.claimDue("d", clock, 1000, 10);
      // Its lease runs out and another dispatcher takes the delivery.
      expect(await store.outbox.claimDue("another-dispatcher", clock + 1000, 1000, 10)).toEqual(
        expect.arrayContaining([expect.objectContaining({ deliveryId: claimed!.deliveryId })]),
      );
      expect(await store.outbox.markDelivered(claimed!, "d", { ...attempt(200), status: 200 }, clock)).toBe(false);
      expect(await store.outbox.markFailed(claimed!, "d", attempt(503), { error: "x" }, clock + 1, clock)).toBe(false);
      expect((await store.outbox.listForBatch(batchId))[0]).toEqual(
        expect.objectContaining({ state: "pending", attempts: [] }),
      );
    });

    test("redelivery of a delivery of another batch is refused", async () => {
      const batchId = await batchWithDelivery();
      const other = await batchWithDelivery();
      const [log] = await store.outbox.listForBatch(batchId);
      expect(await store.outbox.requestRedelivery(other, log!.deliveryId, clock)).toBe(false);
    });
  });
});
