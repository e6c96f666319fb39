import { describe, expect, test } from "bun:test";
import { createMemoryBudget, type MemoryHold } from "../../../src/limits/memory-budget.ts";

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

  test("a hold counts until released; a reservation beside it that fits takes only its own bytes", async () => {
    const memory = budget();
    const body = await memory.hold(100, "body");
    expect(memory.used()).toBe(100);
    const analysis = await memory.reserve(300, "analysis", undefined, body);
    expect(memory.used()).toBe(400);
    analysis();
    expect(memory.used()).toBe(100);
    body.release();
    body.release(); // given back once
    expect(memory.used()).toBe(0);
  });

  test("what must fit counts the hold beside it: past the total together is refused at once", async () => {
    const memory = budget();
    const body = await memory.hold(300, "body");
    const error = await memory.reserve(600, "The image", undefined, body).catch((e: Error) => e.message);
    expect(error).toMatch(/^refused: The image needs about 0 MiB/);
    expect(memory.used()).toBe(300); // the hold is untouched
    body.release();
  });

  test("requests holding bodies while they wait for more never block one another for good", async () => {
    // Two requests hold 200 each; each then needs 500 more. Were the bodies kept while waiting,
    // neither could ever get its 500 (200 + 200 + 500 > 800): a deadlock. Set aside, the first
    // gets 700 (its body and its analysis), and the second follows once the first is done.
    const memory = budget();
    const first = await memory.hold(200, "body 1");
    const second = await memory.hold(200, "body 2");
    const order: string[] = [];
    const run = async (name: string, body: MemoryHold) => {
      const release = await memory.reserve(500, name, undefined, body);
      order.push(`${name} at ${memory.used()}`);
      await Bun.sleep(5);
      release();
      body.release();
    };
    const blocker = await memory.reserve(300, "held elsewhere");
    const done = Promise.all([run("a", first), run("b", second)]);
    await Bun.sleep(5);
    expect(order).toEqual([]);
    blocker();
    await done;
    expect(order).toEqual(["a at 700", "b at 700"]);
    expect(memory.used()).toBe(0);
  });

  test("a hold released while set aside is not given back twice; an abandoned wait counts it again", async () => {
    const memory = budget();
    const blocker = await memory.reserve(600, "blocker");
    const body = await memory.hold(100, "body");
    const waiting = memory.reserve(150, "analysis", undefined, body);
    expect(memory.used()).toBe(600); // the body is set aside while its request waits
    body.release();
    blocker();
    (await waiting)();
    expect(memory.used()).toBe(0);

    const blocker2 = await memory.reserve(600, "blocker");
    const body2 = await memory.hold(100, "body");
    const abort = new AbortController();
    const abandoned = memory.reserve(150, "analysis", abort.signal, body2).catch((e: Error) => e.message);
    abort.abort(new Error("why"));
    expect(await abandoned).toBe("cancelled");
    expect(memory.used()).toBe(700);
    body2.release();
    blocker2();
    expect(memory.used()).toBe(0);
  });
});
