import { describe, expect, test } from "bun:test";
import { BatcherClosedError, createBatcher } from "../../../../sidecar/ocr/batcher.ts";

const recordingBatcher = (opts: {
  maxBatch: number;
  maxWaitMs: number;
  keyOf?: (n: number) => string;
  maxConcurrentRuns?: number;
}) => {
  const calls: number[][] = [];
  const batcher = createBatcher<number, string>({
    ...opts,
    run: async (items) => {
      calls.push(items);
      await Bun.sleep(5);
      return items.map((n) => `result ${n}`);
    },
  });
  return { batcher, calls };
};

describe("the batcher", () => {
  test("runs a full batch at once and hands every caller its own result", async () => {
    const { batcher, calls } = recordingBatcher({ maxBatch: 4, maxWaitMs: 10_000 });
    const results = await Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)));
    expect(results).toEqual(["result 1", "result 2", "result 3", "result 4"]);
    expect(calls).toEqual([[1, 2, 3, 4]]);
  });

  test("runs a partial batch once its oldest item has waited maxWaitMs", async () => {
    const { batcher, calls } = recordingBatcher({ maxBatch: 100, maxWaitMs: 20 });
    const started = performance.now();
    expect(await Promise.all([batcher.submit(1), batcher.submit(2)])).toEqual(["result 1", "result 2"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(calls).toEqual([[1, 2]]);
  });

  test("never mixes items of different keys in one run", async () => {
    const { batcher, calls } = recordingBatcher({ maxBatch: 8, maxWaitMs: 5, keyOf: (n) => (n % 2 ? "odd" : "even") });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)));
    expect(results).toEqual(["result 1", "result 2", "result 3", "result 4", "result 5"]);
    expect(calls.map((c) => [...c].sort())).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
  });

  test("gathers items that arrive while a run is in flight into the next run", async () => {
    const { batcher, calls } = recordingBatcher({ maxBatch: 10, maxWaitMs: 0, maxConcurrentRuns: 1 });
    const first = batcher.submit(1);
    await Bun.sleep(2);
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    expect(await Promise.all([first, ...later])).toEqual(["result 1", "result 2", "result 3", "result 4"]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });

  test("rejects every item of a failed run and keeps serving later ones", async () => {
    let fail = true;
    const batcher = createBatcher<number, number>({
      maxBatch: 2,
      maxWaitMs: 1,
      run: async (items) => {
        if (fail) throw new Error("model failed");
        return items;
      },
    });
    const failed = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await batcher.submit(3)).toBe(3);
  });

  test("rejects the batch when the run returns the wrong number of results", async () => {
    const batcher = createBatcher<number, number>({ maxBatch: 2, maxWaitMs: 1, run: async () => [1] });
    await expect(Promise.all([batcher.submit(1), batcher.submit(2)])).rejects.toThrow("returned 1 results for 2 items");
  });

  test("on close runs what is queued at once, then refuses new items", async () => {
    const { batcher, calls } = recordingBatcher({ maxBatch: 10, maxWaitMs: 60_000 });
    const pending = batcher.submit(7);
    await Promise.all([batcher.close(), batcher.close()]);
    expect(await pending).toBe("result 7");
    expect(calls).toEqual([[7]]);
    await expect(batcher.submit(8)).rejects.toBeInstanceOf(BatcherClosedError);
  });

  test("refuses nonsensical limits", () => {
    expect(() => createBatcher({ maxBatch: 0, maxWaitMs: 1, run: async (items) => items })).toThrow(RangeError);
  });
});
