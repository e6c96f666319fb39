// POST /api/v1/verify's refusals and the limits of each plan, through createApp in-process
// with a manual clock: rate buckets refill and monthly caps reset when the test says so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hashKey } from "../../../src/keys/secret.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";

let service: InProcessApp;
let testKey: string;
let jpeg: Uint8Array;
let jpeg64: string;

const verify = (body: BodyInit | object, key: string | null = testKey, headers: Record<string, string> = {}) => {
  if (body instanceof FormData) return service.request("/api/v1/verify", { method: "POST", key, headers, body });
  return service.request("/api/v1/verify", json(body, { key, headers }));
};

const expectError = async (response: Response, status: number, code: string) => {
  const body = await response.json();
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.message).toBe("string");
  expect(body.error.requestId).toMatch(/^req_[0-9a-f]{16}$/);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(response.headers.get("x-request-id")).toBe(body.error.requestId);
  return body;
};

const upload = (bytes: Uint8Array, name = "document.jpg") => {
  const form = new FormData();
  form.append("document", new File([bytes], name));
  return form;
};

beforeAll(async () => {
  service = await startInProcessApp();
  testKey = await service.createKey({ mode: "test" });
  jpeg = await makeJpeg();
  jpeg64 = Buffer.from(jpeg).toString("base64");
});

afterAll(async () => {
  await service?.close();
});

describe("authentication", () => {
  test("a request without a key gets 401 UNAUTHORIZED with a Bearer challenge", async () => {
    const response = await verify({ document: jpeg64 }, null);
    await expectError(response, 401, "UNAUTHORIZED");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("malformed, unknown and revoked keys get 401 UNAUTHORIZED", async () => {
    await expectError(await verify({ document: "AAAA" }, "not-a-key"), 401, "UNAUTHORIZED");
    await expectError(await verify({ document: "AAAA" }, `svc_test_${"x".repeat(43)}`), 401, "UNAUTHORIZED");
    const doomed = await service.createKey({ mode: "test" });
    await service.deps.store.keys.revoke({ keyHash: hashKey(doomed) }, new Date(service.clock.now()).toISOString());
    await expectError(await verify({ document: "AAAA" }, doomed), 401, "UNAUTHORIZED");
  });

  test("a rotated-out secret works through its grace period and not a second after", async () => {
    const old = await service.createKey({ mode: "test" });
    const { record } = (await service.deps.store.keys.findByHash(
      hashKey(old),
      new Date(service.clock.now()).toISOString(),
    )) as { record: { id: string } };
    const now = service.clock.now();
    await service.deps.store.keys.rotate(
      record.id,
      hashKey(`svc_test_${"n".repeat(43)}`),
      new Date(now).toISOString(),
      new Date(now + 3_600_000).toISOString(),
    );
    service.clock.advance(3_600_000 - 1000);
    await expectError(await verify({}, old), 400, "VALIDATION_ERROR");
    service.clock.advance(1000);
    await expectError(await verify({}, old), 401, "UNAUTHORIZED");
  });

  test("every refusal is written to the audit log with its code and path", async () => {
    await verify({ document: "AAAA" }, `svc_live_${"y".repeat(43)}`);
    const rows = await service.testStore.read<{ details: string }>(
      "SELECT * FROM audit_log ORDER BY rowid DESC LIMIT 1",
    );
    expect(JSON.stringify(rows[0])).toContain("UNAUTHORIZED");
    expect(JSON.stringify(rows[0])).toContain("/api/v1/verify");
  });
});

describe("validation", () => {
  test("an empty or non-JSON body gets 400 VALIDATION_ERROR", async () => {
    await expectError(await verify({}), 400, "VALIDATION_ERROR");
    await expectError(await verify("{not json"), 400, "VALIDATION_ERROR");
    await expectError(await verify("plain", testKey, { "content-type": "text/plain" }), 400, "VALIDATION_ERROR");
  });

  test("both document and documentUrl at once get 400 VALIDATION_ERROR with details", async () => {
    const body = await expectError(
      await verify({ document: "AAAA", documentUrl: "https://example.com/a.pdf" }),
      400,
      "VALIDATION_ERROR",
    );
    expect(Array.isArray(body.error.details)).toBe(true);
  });

  test("a documentUrl that is not HTTPS gets 400 VALIDATION_ERROR", async () => {
    await expectError(await verify({ documentUrl: "http://example.com/a.pdf" }), 400, "VALIDATION_ERROR");
    await expectError(await verify({ documentUrl: "ftp://example.com/a.pdf" }), 400, "VALIDATION_ERROR");
  });

  test("bytes that are not JPEG, PNG or PDF get 422 UNSUPPORTED_FORMAT, whatever their name", async () => {
    await expectError(
      await verify(upload(new TextEncoder().encode("GIF89a......"), "photo.jpg")),
      422,
      "UNSUPPORTED_FORMAT",
    );
    await expectError(
      await verify({ document: Buffer.from("hello world").toString("base64") }),
      422,
      "UNSUPPORTED_FORMAT",
    );
  });

  test("a truncated JPEG and a truncated PDF get 422 UNSUPPORTED_FORMAT", async () => {
    await expectError(await verify(upload(jpeg.slice(0, Math.floor(jpeg.length / 2)))), 422, "UNSUPPORTED_FORMAT");
    const pdf = makePdf();
    await expectError(
      await verify(upload(pdf.slice(0, Math.floor(pdf.length / 2)), "a.pdf")),
      422,
      "UNSUPPORTED_FORMAT",
    );
  });

  test("a multipart file or a base64 document over 4,500,000 bytes gets 422 FILE_TOO_LARGE", async () => {
    const big = new Uint8Array(4_500_001);
    big.set(jpeg.slice(0, 3));
    await expectError(await verify(upload(big)), 422, "FILE_TOO_LARGE");
    await expectError(
      await verify({ document: Buffer.alloc(4_500_001, 0xff).toString("base64") }),
      422,
      "FILE_TOO_LARGE",
    );
  });

  test("a Content-Length no route would read gets 422 FILE_TOO_LARGE and closes the connection", async () => {
    const response = await verify("{}", testKey, { "content-length": String(200_000_000) });
    await expectError(response, 422, "FILE_TOO_LARGE");
    expect(response.headers.get("connection")).toBe("close");
  });
});

describe("routing", () => {
  test("a malformed or unknown verification id or batch id gets 404 NOT_FOUND", async () => {
    await expectError(await service.request("/api/v1/verifications/nope", { key: testKey }), 404, "NOT_FOUND");
    await expectError(
      await service.request(`/api/v1/verifications/ver_${"0".repeat(32)}`, { key: testKey }),
      404,
      "NOT_FOUND",
    );
    await expectError(await service.request("/api/v1/batches/not-a-uuid", { key: testKey }), 404, "NOT_FOUND");
    await expectError(
      await service.request(`/api/v1/batches/${crypto.randomUUID()}`, { key: testKey }),
      404,
      "NOT_FOUND",
    );
  });

  test("an unknown route gets 404 NOT_FOUND and a wrong method 405 METHOD_NOT_ALLOWED with Allow", async () => {
    await expectError(await service.request("/nowhere"), 404, "NOT_FOUND");
    const wrong = await service.request("/api/v1/verify", { key: testKey });
    await expectError(wrong, 405, "METHOD_NOT_ALLOWED");
    expect(wrong.headers.get("allow")).toBe("POST");
    const batch = await service.request(`/api/v1/batches/${crypto.randomUUID()}`, { method: "PUT", key: testKey });
    await expectError(batch, 405, "METHOD_NOT_ALLOWED");
    expect(batch.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("plans and limits", () => {
  test("a key over its request rate gets 429 RATE_LIMITED with Retry-After, and a token back as the clock moves", async () => {
    const limited = await service.createKey({ mode: "test", rateLimitPerSecond: 2 });
    // A bucket of two: both go through (to the body check), the third is refused.
    await expectError(await verify({}, limited), 400, "VALIDATION_ERROR");
    await expectError(await verify({}, limited), 400, "VALIDATION_ERROR");
    const refused = await verify({}, limited);
    await expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("1");
    service.clock.advance(499);
    await expectError(await verify({}, limited), 429, "RATE_LIMITED");
    service.clock.advance(1);
    await expectError(await verify({}, limited), 400, "VALIDATION_ERROR");
  });

  test("a trial key past its quota gets 402 TRIAL_EXHAUSTED", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 1 });
    expect((await verify({ document: jpeg64 }, trial)).status).toBe(200);
    await expectError(await verify({ document: jpeg64 }, trial), 402, "TRIAL_EXHAUSTED");
  });

  test("a document that cannot be analysed does not use up the trial", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 1 });
    await expectError(
      await verify({ document: Buffer.from("not a document").toString("base64") }, trial),
      422,
      "UNSUPPORTED_FORMAT",
    );
    expect((await verify({ document: jpeg64 }, trial)).status).toBe(200);
  });

  test("a live key at its monthly cap gets 429 CAP_EXCEEDED with Retry-After until next month, and passes then", async () => {
    const capped = await service.createKey({ mode: "live", monthlyCap: 0.1 });
    expect((await verify({ document: jpeg64 }, capped)).status).toBe(200);
    const refused = await verify({ document: jpeg64 }, capped);
    await expectError(refused, 429, "CAP_EXCEEDED");
    const now = service.clock.now();
    const nextMonth = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + 1, 1);
    expect(Number(refused.headers.get("retry-after"))).toBe(Math.ceil((nextMonth - now) / 1000));
    service.clock.set(nextMonth);
    expect((await verify({ document: jpeg64 }, capped)).status).toBe(200);
  });

  test("test keys are never billed: a test key's verifies pass any number of times", async () => {
    for (let i = 0; i < 3; i++) expect((await verify({ document: jpeg64 })).status).toBe(200);
    const testKeyRows = await service.testStore.read<{ n: number }>(
      "SELECT COUNT(*) AS n FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.mode = 'test'",
    );
    expect(testKeyRows[0]!.n).toBe(0);
  });
});
