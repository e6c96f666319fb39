import { describe, expect, test } from "bun:test";
import { readLimited } from "../../../src/intake/read-limited.ts";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe("readLimited", () => {
  test("joins every chunk of a stream in order", async () => {
    const body = await readLimited(streamOf([new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5])]), 10);
    expect(body).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });

  test("accepts a body of exactly the limit", async () => {
    expect((await readLimited(streamOf([new Uint8Array(6), new Uint8Array(4)]), 10)).byteLength).toBe(10);
  });

  test("reads an empty stream as no bytes", async () => {
    expect((await readLimited(streamOf([]), 10)).byteLength).toBe(0);
  });

  test("reads a real HTTP request body", async () => {
    const sent = crypto.getRandomValues(new Uint8Array(200_000));
    const request = new Request("http://127.0.0.1/upload", { method: "POST", body: sent });
    if (request.body === null) throw new Error("request has no body");
    expect(await readLimited(request.body, 200_000)).toEqual(sent);
  });
});
