import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls";

let service: TestService;
let testKey: string;
let documents: TestHttpsServer;

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
});

afterAll(async () => {
  await service?.stop();
  documents?.stop();
});

// The route's other refusals and the plans' limits are tested in-process with a manual clock
// (test/unit/api/verify-route.errors.test.ts); these need a document server or the CLI.
describe("POST /api/v1/verify refuses", () => {
  test("a URL document over 10,000,000 bytes with 422 FILE_TOO_LARGE", async () => {
    await expectError(await verify({ documentUrl: `${documents.url}/huge.pdf` }), 422, "FILE_TOO_LARGE");
  });

  test("a documentUrl that answers 404, or where nothing listens, with 422 FETCH_FAILED", async () => {
    await expectError(await verify({ documentUrl: `${documents.url}/missing.jpg` }), 422, "FETCH_FAILED");
    await expectError(await verify({ documentUrl: "https://127.0.0.1:1/a.pdf" }), 422, "FETCH_FAILED");
  });
});

describe("plans and limits", () => {
  test("test keys are never counted against quotas: billing flags are refused for them", async () => {
    const result = await service.cli("keys", "create", "--mode", "test", "--trial-quota", "5");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("test keys");
  });
});
