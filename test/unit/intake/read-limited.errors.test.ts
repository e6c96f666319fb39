import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/errors.ts";
import { readLimited } from "../../../src/intake/read-limited.ts";

describe("readLimited refuses", () => {
  test("a body one byte over the limit with FILE_TOO_LARGE", async () => {
    const stream = new Response(new Uint8Array(11)).body;
    if (stream === null) throw new Error("no body");
    const error = await readLimited(stream, 10).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("FILE_TOO_LARGE");
  });

  test("an endless stream as soon as the limit is passed, and cancels it", async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await readLimited(endless, 10 * 1024).catch((caught: unknown) => caught);
    expect((error as AppError).code).toBe("FILE_TOO_LARGE");
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(12);
  });
});
