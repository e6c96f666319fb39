import { describe, expect, test } from "bun:test";
import { createMemoryBudget } from "../../../src/limits/memory-budget.ts";

const budget = (limitBytes = 1_000, idleBytes = 200) =>
  createMemoryBudget({
    limitBytes,
    idleBytes,
    refuse: (message) => new Error(`refused: ${message}`),
    cancelled: () => new Error("cancelled"),
  });

describe("memory budget", () => {
  test("what fits runs at once; what does not fit beside the holders waits, first come first served", async () => {
    const memory = budget();
    expect(memory.totalBytes).toBe(800);
    const first = await memory.reserve(500, "a");
    const order: string[] = [];
    const second = memory.reserve(400, "b").then((release) => {
      order.push("b");
      return release;
    });
    const third = memory.reserve(100, "c").then((release) => {
      order.push("c");
      return release;
    });
    await Bun.sleep(5);
    // c would fit now, but waits behind b: a large document is not starved by small ones.
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["b", "c"]);
    expect(memory.used()).toBe(0);
  });

  test("what could never fit is refused at once, naming the limit", async () => {
    const error = await budget(1_500_000_000, 256 * 1024 * 1024)
      .reserve(2_000_000_000, "The image")
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^refused: The image needs about 1907 MiB of memory to analyse, more than the 1431 MiB memory limit \(DOCVERIFY_MEMORY_LIMIT\)/,
    );
  });

  test("a waiter that gives up leaves the queue and lets the next one in", async () => {
    const memory = budget();
    const holder = await memory.reserve(700, "a");
    const abort = new AbortController();
    const abandoned = memory.reserve(800, "b", abort.signal).catch((e: Error) => e.message);
    const next = memory.reserve(100, "c");
    abort.abort();
    expect(await abandoned).toBe("cancelled");
    (await next)();
    holder();
    holder(); // releasing twice gives back once
    expect(memory.used()).toBe(0);
  });
});
