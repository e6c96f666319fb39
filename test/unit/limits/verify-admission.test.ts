import { describe, expect, test } from "bun:test";
import { Registry } from "prom-client";
import { AppError } from "../../../src/errors.ts";
import { createVerifyAdmission } from "../../../src/limits/verify-admission.ts";

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe("verify admission", () => {
  test("runs up to its concurrency, queues up to its bound, and refuses past it with Retry-After", async () => {
    const admission = createVerifyAdmission({ concurrent: 2, queued: 1, maxWaitMs: 5_000 });
    const first = await admission.enter();
    await admission.enter();
    const queued = admission.enter();
    expect({ running: admission.running(), waiting: admission.waiting() }).toEqual({ running: 2, waiting: 1 });
    const error = await refusal(admission.enter());
    expect(error.code).toBe("SERVICE_UNAVAILABLE");
    expect(error.retryAfterSec).toBe(5);
    expect(() => admission.refuseIfFull()).toThrow("at capacity");
    first();
    first(); // ending a turn twice frees one slot only
    const third = await queued;
    // two running, none waiting: the queue has room
    expect(() => admission.refuseIfFull()).not.toThrow();
    expect({ running: admission.running(), waiting: admission.waiting() }).toEqual({ running: 2, waiting: 0 });
    third();
  });

  test("a document that waits past the limit is refused and leaves the queue", async () => {
    const admission = createVerifyAdmission({ concurrent: 1, queued: 4, maxWaitMs: 50 });
    const turn = await admission.enter();
    const error = await refusal(admission.enter());
    expect(error.message).toContain("waited 50 ms");
    expect(admission.waiting()).toBe(0);
    turn();
    expect(admission.running()).toBe(0);
  });

  test("first come, first served, and the queue length and waits reach the registry", async () => {
    const registry = new Registry();
    const admission = createVerifyAdmission({ concurrent: 1, queued: 8, maxWaitMs: 5_000, registry });
    const order: number[] = [];
    const holder = await admission.enter();
    const waiting = [1, 2, 3].map((n) =>
      admission.enter().then((end) => {
        order.push(n);
        end();
      }),
    );
    expect(await registry.getSingleMetricAsString("docverify_verify_queue_length")).toContain(
      "docverify_verify_queue_length 3",
    );
    holder();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    const metrics = await registry.metrics();
    expect(metrics).toContain("docverify_verify_queue_length 0");
    expect(metrics).toContain("docverify_verify_queue_wait_seconds_count 4");
  });

  test("a queue of zero refuses whatever cannot run at once", async () => {
    const admission = createVerifyAdmission({ concurrent: 1, queued: 0, maxWaitMs: 1_000 });
    const turn = await admission.enter();
    expect((await refusal(admission.enter())).code).toBe("SERVICE_UNAVAILABLE");
    turn();
  });
});
