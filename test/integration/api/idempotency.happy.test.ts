// Idempotency-Key on POST /api/v1/verify and /api/v1/verify/batch, end to end: a real
// service, a live key with a trial quota to see what is billed, a slow HTTPS document server
// to hold a request in flight, and a webhook receiver to count what is enqueued.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService } from "../../helpers/service";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls";
import { startWebhookReceiver } from "../../helpers/webhook-receiver";
import { makeJpeg, makePdf } from "../../helpers/fixtures";

let service: TestService;
let testKey: string;
let documents: TestHttpsServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let jpeg: Uint8Array;
let pdf: Uint8Array;

const post = (path: string, body: FormData | object, apiKey: string, idempotencyKey?: string) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
      ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
    },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });

const verify = (body: FormData | object, apiKey: string, idempotencyKey?: string) => post("/api/v1/verify", body, apiKey, idempotencyKey);

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

beforeAll(async () => {
  const tls = await makeTestCa();
  [jpeg, pdf] = await Promise.all([makeJpeg(), Promise.resolve(makePdf())]);
  documents = await startHttpsServer(async (request) => {
    // Slow on purpose: holds the first of two concurrent requests in flight.
    if (new URL(request.url).pathname === "/slow.pdf") await Bun.sleep(2000);
    return new Response(pdf, { headers: { "content-type": "application/pdf" } });
  }, tls);
  receiver = await startWebhookReceiver(tls);
  service = await startService({ env: { NODE_EXTRA_CA_CERTS: tls.caFile, DOCVERIFY_ALLOW_PRIVATE_URLS: "true", DOCVERIFY_OUTBOX_POLL_MS: "50" } });
  testKey = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
  documents?.stop();
  receiver?.stop();
});

describe("POST /api/v1/verify with an Idempotency-Key", () => {
  test("answers a retry with the first answer, byte for byte, and neither analyses nor bills it again", async () => {
    const liveKey = await service.createKey("--mode", "live", "--plan", "trial", "--trial-quota", "2");
    const body = { document: Buffer.from(jpeg).toString("base64") };
    const first = await verify(body, liveKey, "order-1234");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBytes = await bytesOf(first);

    const again = await verify(body, liveKey, "order-1234");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true);

    // A quota of 2: one analysis was billed, so one more passes and the next is refused.
    expect((await verify(body, liveKey, "order-5678")).status).toBe(200);
    const refused = await verify(body, liveKey);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("TRIAL_EXHAUSTED");
    // The kept answer is still there, and still not billed.
    const third = await verify(body, liveKey, "order-1234");
    expect(third.status).toBe(200);
    expect((await bytesOf(third)).equals(firstBytes)).toBe(true);
  });

  test("refuses the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED", async () => {
    expect((await verify({ document: Buffer.from(jpeg).toString("base64") }, testKey, "reused-key")).status).toBe(200);
    const response = await verify({ document: Buffer.from(pdf).toString("base64") }, testKey, "reused-key");
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    // On the other endpoint the same key is another request too.
    const batch = await post("/api/v1/verify/batch", { documents: ["bm90IGEgZG9jdW1lbnQ="], callbackUrl: receiver.url, callbackSecret: "0123456789abcdef" }, testKey, "reused-key");
    expect(batch.status).toBe(422);
  });

  test("analyses two concurrent requests with one key once: the second gets 409 with Retry-After, a later retry the answer", async () => {
    const body = { documentUrl: `${documents.url}/slow.pdf` };
    const [a, b] = await Promise.all([verify(body, testKey, "concurrent"), Bun.sleep(300).then(() => verify(body, testKey, "concurrent"))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(409);
    expect(b.headers.get("retry-after")).toBe("1");
    expect((await b.json()).error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    const firstBytes = await bytesOf(a);
    const retry = await verify(body, testKey, "concurrent");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(retry)).equals(firstBytes)).toBe(true);
  });

  test("keeps keys per API key: another key's same Idempotency-Key is its own request", async () => {
    const other = await service.createKey("--mode", "test");
    const body = { document: Buffer.from(jpeg).toString("base64") };
    const mine = await (await verify(body, testKey, "shared-name")).json();
    const theirs = await verify(body, other, "shared-name");
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect((await theirs.json()).data.id).not.toBe(mine.data.id);
  });

  test("replays a multipart upload sent again with a new boundary", async () => {
    const form = () => {
      const data = new FormData();
      data.append("document", new File([jpeg], "scan.jpg", { type: "image/jpeg" }));
      return data;
    };
    const first = await verify(form(), testKey, "multipart-1");
    expect(first.status).toBe(200);
    const again = await verify(form(), testKey, "multipart-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(again)).equals(await bytesOf(first))).toBe(true);
  });

  test("keeps an answer that judges the request, such as UNSUPPORTED_FORMAT, and replays it", async () => {
    const body = { document: Buffer.from("not a document").toString("base64") };
    const first = await verify(body, testKey, "bad-document");
    expect(first.status).toBe(422);
    const firstBytes = await bytesOf(first);
    expect(JSON.parse(firstBytes.toString()).error.code).toBe("UNSUPPORTED_FORMAT");
    const again = await verify(body, testKey, "bad-document");
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true);
  });

  test("frees the key after an answer a retry could change, such as a document URL that could not be fetched", async () => {
    const body = { documentUrl: "https://127.0.0.1:1/statement.pdf" };
    const first = await verify(body, testKey, "unreachable");
    expect(first.status).toBe(422);
    expect((await first.json()).error.code).toBe("FETCH_FAILED");
    const again = await verify(body, testKey, "unreachable");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  test.each([["empty", ""], ["too long", "k".repeat(256)], ["not printable", "tab\there"]])("refuses a malformed key (%s) with 400", async (_, value) => {
    const response = await verify({ document: Buffer.from(jpeg).toString("base64") }, testKey, value);
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("VALIDATION_ERROR");
  });
});

describe("POST /api/v1/verify/batch with an Idempotency-Key", () => {
  test("enqueues the batch once: a retry gets the same batch id and no document is delivered twice", async () => {
    const body = { documents: ["bm90IGEgZG9jdW1lbnQ=", "YWxzbyBub3QgYSBkb2N1bWVudA=="], callbackUrl: receiver.url, callbackSecret: "0123456789abcdef" };
    const first = await post("/api/v1/verify/batch", body, testKey, "batch-1");
    expect(first.status).toBe(202);
    const firstBytes = await bytesOf(first);
    const again = await post("/api/v1/verify/batch", body, testKey, "batch-1");
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true);
    const { batchId } = JSON.parse(firstBytes.toString()).data;
    await eventually(() => (receiver.forBatch(batchId).length >= 2 ? true : undefined));
    await Bun.sleep(1000);
    expect(receiver.forBatch(batchId)).toHaveLength(2);
    expect(new Set(receiver.received.map((hook) => hook.body.batchId)).size).toBe(receiver.received.length / 2);
  });
});
