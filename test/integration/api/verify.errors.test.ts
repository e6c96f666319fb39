import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service";
import { makeJpeg, makePdf } from "../../helpers/fixtures";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls";

let service: TestService;
let testKey: string;
let documents: TestHttpsServer;
let jpeg: Uint8Array;

const verify = (body: BodyInit | object, key: string | null = testKey, headers: Record<string, string> = {}) => {
  const isForm = body instanceof FormData;
  const isRaw = typeof body === "string" || body instanceof Uint8Array;
  return fetch(`${service.url}/api/v1/verify`, {
    method: "POST",
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(isForm ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: isForm || isRaw ? (body as BodyInit) : JSON.stringify(body),
  });
};

const expectError = async (response: Response, status: number, code: string) => {
  const body = await response.json();
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.message).toBe("string");
  expect(body.error.requestId).toMatch(/^req_[0-9a-f]{16}$/);
  expect(Object.keys(body)).toEqual(["error"]);
  return body;
};

const upload = (bytes: Uint8Array, name = "document.jpg") => {
  const form = new FormData();
  form.append("document", new File([bytes], name));
  return form;
};

beforeAll(async () => {
  const tls = await makeTestCa();
  documents = await startHttpsServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/missing.jpg") return new Response("gone", { status: 404 });
    if (path === "/huge.pdf") return new Response(new Uint8Array(10_000_001), { headers: { "content-type": "application/pdf" } });
    return new Response("not found", { status: 404 });
  }, tls);
  // Private URLs are allowed here so the loopback document server can be reached; the
  // refusal of private addresses is proved in verify.security.test.ts.
  service = await startService({ env: { NODE_EXTRA_CA_CERTS: tls.caFile, DOCVERIFY_ALLOW_PRIVATE_URLS: "true" } });
  testKey = await service.createKey("--mode", "test");
  jpeg = await makeJpeg();
});

afterAll(async () => {
  await service?.stop();
  documents?.stop();
});

describe("POST /api/v1/verify refuses", () => {
  test("a request without a key with 401 UNAUTHORIZED", async () => {
    const response = await verify({ document: Buffer.from(jpeg).toString("base64") }, null);
    await expectError(response, 401, "UNAUTHORIZED");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("malformed, unknown and revoked keys with 401 UNAUTHORIZED", async () => {
    await expectError(await verify({ document: "AAAA" }, "not-a-key"), 401, "UNAUTHORIZED");
    await expectError(await verify({ document: "AAAA" }, "svc_test_" + "x".repeat(43)), 401, "UNAUTHORIZED");
    const doomed = await service.createKey("--mode", "test");
    expect((await service.cli("keys", "revoke", doomed)).exitCode).toBe(0);
    await expectError(await verify({ document: "AAAA" }, doomed), 401, "UNAUTHORIZED");
  });

  test("an empty or non-JSON body with 400 VALIDATION_ERROR", async () => {
    await expectError(await verify({}), 400, "VALIDATION_ERROR");
    await expectError(await verify("{not json"), 400, "VALIDATION_ERROR");
    await expectError(await verify("plain", testKey, { "content-type": "text/plain" }), 400, "VALIDATION_ERROR");
  });

  test("both document and documentUrl at once with 400 VALIDATION_ERROR", async () => {
    await expectError(await verify({ document: "AAAA", documentUrl: "https://example.com/a.pdf" }), 400, "VALIDATION_ERROR");
  });

  test("a documentUrl that is not HTTPS with 400 VALIDATION_ERROR", async () => {
    await expectError(await verify({ documentUrl: "http://example.com/a.pdf" }), 400, "VALIDATION_ERROR");
    await expectError(await verify({ documentUrl: "ftp://example.com/a.pdf" }), 400, "VALIDATION_ERROR");
  });

  test("bytes that are not JPEG, PNG or PDF with 422 UNSUPPORTED_FORMAT, whatever their name", async () => {
    await expectError(await verify(upload(new TextEncoder().encode("GIF89a......"), "photo.jpg")), 422, "UNSUPPORTED_FORMAT");
    await expectError(await verify({ document: Buffer.from("hello world").toString("base64") }), 422, "UNSUPPORTED_FORMAT");
  });

  test("a truncated JPEG and a truncated PDF with 422 UNSUPPORTED_FORMAT", async () => {
    await expectError(await verify(upload(jpeg.slice(0, Math.floor(jpeg.length / 2)))), 422, "UNSUPPORTED_FORMAT");
    const pdf = await makePdf();
    await expectError(await verify(upload(pdf.slice(0, Math.floor(pdf.length / 2)), "a.pdf")), 422, "UNSUPPORTED_FORMAT");
  });

  test("a multipart file over 4,500,000 bytes with 422 FILE_TOO_LARGE", async () => {
    const big = new Uint8Array(4_500_001);
    big.set(jpeg.slice(0, 3));
    await expectError(await verify(upload(big)), 422, "FILE_TOO_LARGE");
  });

  test("a base64 document over 4,500,000 decoded bytes with 422 FILE_TOO_LARGE", async () => {
    const big = Buffer.alloc(4_500_001, 0xff);
    await expectError(await verify({ document: big.toString("base64") }), 422, "FILE_TOO_LARGE");
  });

  test("a URL document over 10,000,000 bytes with 422 FILE_TOO_LARGE", async () => {
    await expectError(await verify({ documentUrl: `${documents.url}/huge.pdf` }), 422, "FILE_TOO_LARGE");
  });

  test("a documentUrl that answers 404, or where nothing listens, with 422 FETCH_FAILED", async () => {
    await expectError(await verify({ documentUrl: `${documents.url}/missing.jpg` }), 422, "FETCH_FAILED");
    await expectError(await verify({ documentUrl: "https://127.0.0.1:1/a.pdf" }), 422, "FETCH_FAILED");
  });

  test("a malformed verification id or batch id with 404 NOT_FOUND", async () => {
    const headers = { authorization: `Bearer ${testKey}` };
    await expectError(await fetch(`${service.url}/api/v1/verifications/nope`, { headers }), 404, "NOT_FOUND");
    await expectError(await fetch(`${service.url}/api/v1/batches/not-a-uuid`, { headers }), 404, "NOT_FOUND");
    await expectError(await fetch(`${service.url}/api/v1/batches/${crypto.randomUUID()}`, { headers }), 404, "NOT_FOUND");
  });

  test("an unknown route with 404 NOT_FOUND and a wrong method with 405 METHOD_NOT_ALLOWED", async () => {
    await expectError(await fetch(`${service.url}/nowhere`), 404, "NOT_FOUND");
    const wrong = await fetch(`${service.url}/api/v1/verify`, { headers: { authorization: `Bearer ${testKey}` } });
    await expectError(wrong, 405, "METHOD_NOT_ALLOWED");
    expect(wrong.headers.get("allow")).toBe("POST");
  });
});

describe("plans and limits", () => {
  test("a key over its request rate gets 429 RATE_LIMITED with Retry-After", async () => {
    const limited = await service.createKey("--mode", "test", "--rate-limit", "2/s");
    const statuses: Response[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await verify({}, limited));
    const refused = statuses.find((response) => response.status === 429);
    expect(refused).toBeDefined();
    await expectError(refused!, 429, "RATE_LIMITED");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("a trial key past its quota gets 402 TRIAL_EXHAUSTED", async () => {
    const trial = await service.createKey("--mode", "live", "--plan", "trial", "--trial-quota", "1");
    const first = await verify({ document: Buffer.from(jpeg).toString("base64") }, trial);
    expect(first.status).toBe(200);
    await expectError(await verify({ document: Buffer.from(jpeg).toString("base64") }, trial), 402, "TRIAL_EXHAUSTED");
  });

  test("a document that cannot be analysed does not use up the trial", async () => {
    const trial = await service.createKey("--mode", "live", "--plan", "trial", "--trial-quota", "1");
    await expectError(await verify({ document: Buffer.from("not a document").toString("base64") }, trial), 422, "UNSUPPORTED_FORMAT");
    expect((await verify({ document: Buffer.from(jpeg).toString("base64") }, trial)).status).toBe(200);
  });

  test("a live key at its monthly cap gets 429 CAP_EXCEEDED with Retry-After until next month", async () => {
    const capped = await service.createKey("--mode", "live", "--monthly-cap", "0.10");
    expect((await verify({ document: Buffer.from(jpeg).toString("base64") }, capped)).status).toBe(200);
    const refused = await verify({ document: Buffer.from(jpeg).toString("base64") }, capped);
    await expectError(refused, 429, "CAP_EXCEEDED");
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Math.abs(retryAfter - (nextMonth - Date.now()) / 1000)).toBeLessThan(30);
  });

  test("test keys are never counted against quotas: billing flags are refused for them", async () => {
    const result = await service.cli("keys", "create", "--mode", "test", "--trial-quota", "5");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("test keys");
  });
});
