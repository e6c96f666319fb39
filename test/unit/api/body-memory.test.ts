// Request bodies in flight count against DOCVERIFY_MEMORY_LIMIT (src/api/body-memory.ts): a
// body holds its share of the process's memory budget from before its first byte is read
// until its answer is sent, and one that finds no room waits for it, then gets 503.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BODY_BYTES_PER_BYTE } from "../../../src/api/body-memory.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

const MIB = 1024 * 1024;
// The API's idle size is 256 MiB: this leaves 20 MB for the documents and bodies in flight.
const MEMORY_LIMIT = 256 * MIB + 20_000_000;
const QUEUE_WAIT_MS = 300;

let service: InProcessApp;
let key: string;
let body: Uint8Array;

beforeAll(async () => {
  service = await startInProcessApp({
    env: { DOCVERIFY_MEMORY_LIMIT: String(MEMORY_LIMIT), DOCVERIFY_VERIFY_QUEUE_WAIT: `${QUEUE_WAIT_MS}ms` },
  });
  key = await service.createKey({ mode: "test" });
  body = new TextEncoder().encode(JSON.stringify({ document: Buffer.from(await makeJpeg()).toString("base64") }));
});

afterAll(async () => {
  await service?.close();
});

/** A verify whose body arrives in two halves, the second only once `rest` is called. */
function verifyInTwoHalves(bytes: Uint8Array): { response: Promise<Response>; rest(): void } {
  let rest = () => {};
  const restSent = new Promise<void>((resolve) => {
    rest = resolve;
  });
  const half = Math.floor(bytes.length / 2);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      await restSent;
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
  const response = service.request("/api/v1/verify", {
    method: "POST",
    key,
    headers: { "content-type": "application/json", "content-length": String(bytes.length) },
    body: stream,
    duplex: "half",
  } as RequestInit & { key: string });
  return { response, rest };
}

/** The after-response hook gives the body's memory back just after the answer is out. */
async function settledUse(): Promise<number> {
  for (let i = 0; i < 50 && service.deps.memory.used() !== 0; i++) await Bun.sleep(10);
  return service.deps.memory.used();
}

describe("request bodies in the memory budget", () => {
  test("a body holds its share from before it is read whole until it is answered", async () => {
    expect(service.deps.memory.used()).toBe(0);
    const { response, rest } = verifyInTwoHalves(body);
    await Bun.sleep(50);
    // Half read: the whole declared body, and what is parsed and decoded from it, is held.
    expect(service.deps.memory.used()).toBe(body.length * BODY_BYTES_PER_BYTE);
    rest();
    expect((await response).status).toBe(200);
    expect(await settledUse()).toBe(0);
  });

  test("a refused body gives its share back too", async () => {
    const response = await service.request("/api/v1/verify", json({ document: "not base64!" }, { key }));
    expect(response.status).toBe(400);
    expect(await settledUse()).toBe(0);
  });

  test("a body that finds no room waits for it; past the queue wait it is refused with 503 and Retry-After", async () => {
    const memory = service.deps.memory;
    const elsewhere = await memory.reserve(memory.totalBytes - body.length, "documents in flight");
    const started = performance.now();
    const refused = await service.request("/api/v1/verify", json(new TextDecoder().decode(body), { key }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(QUEUE_WAIT_MS - 20);
    const error = (await refused.json()).error;
    expect({ status: refused.status, code: error.code }).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE" });
    expect(error.message).toMatch(/no memory was free for the request body/);
    expect(refused.headers.get("retry-after")).toBe("1");

    // Room given back while a body waits lets it in.
    const waiting = service.request("/api/v1/verify", json(new TextDecoder().decode(body), { key }));
    await Bun.sleep(50);
    elsewhere();
    expect((await waiting).status).toBe(200);
    expect(await settledUse()).toBe(0);
  });

  test("a batch body holds its share until it is answered", async () => {
    const batch = new TextEncoder().encode(
      JSON.stringify({
        documents: [JSON.parse(new TextDecoder().decode(body)).document],
        callbackUrl: "https://192.0.2.1/docverify",
      }),
    );
    const memory = service.deps.memory;
    const elsewhere = await memory.reserve(memory.totalBytes - batch.length, "documents in flight");
    const refused = await service.request("/api/v1/verify/batch", json(new TextDecoder().decode(batch), { key }));
    expect(refused.status).toBe(503);
    elsewhere();
    expect(await settledUse()).toBe(0);
  });
});
