import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service.ts";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls.ts";
import { makeJpeg, makePdf, makePng } from "../../helpers/fixtures.ts";

let service: TestService;
let testKey: string;
let liveKey: string;
let documents: TestHttpsServer;
let jpeg: Uint8Array;
let png: Uint8Array;
let pdf: Uint8Array;

const RESULT_KEYS = ["confidence", "documentType", "flags", "forgeryScore", "id", "latencyMs"];

const verify = (body: FormData | object, key = testKey) =>
  fetch(`${service.url}/api/v1/verify`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
    },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });

const expectResult = (data: Record<string, unknown>, sandbox: boolean) => {
  expect(Object.keys(data).sort()).toEqual(sandbox ? [...RESULT_KEYS, "sandbox"].sort() : RESULT_KEYS);
  expect(data.id).toMatch(/^ver_[0-9a-f]{32}$/);
  expect(data.forgeryScore as number).toBeGreaterThanOrEqual(0);
  expect(data.forgeryScore as number).toBeLessThanOrEqual(1);
  expect(["low", "medium", "high"]).toContain(data.confidence as string);
  expect(["passport", "id", "drivers_license", "utility_bill", "financial", "unknown"]).toContain(
    data.documentType as string,
  );
  expect(Array.isArray(data.flags)).toBe(true);
  expect(data.latencyMs as number).toBeGreaterThanOrEqual(0);
  if (sandbox) expect(data.sandbox).toBe(true);
};

beforeAll(async () => {
  const tls = await makeTestCa();
  [jpeg, png, pdf] = await Promise.all([makeJpeg(), makePng(), makePdf()]);
  documents = await startHttpsServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/statement.pdf")
      return new Response(pdf, { headers: { "content-type": "application/octet-stream" } });
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/statement.pdf" } });
    return new Response("not found", { status: 404 });
  }, tls);
  service = await startService({ env: { NODE_EXTRA_CA_CERTS: tls.caFile, DOCVERIFY_ALLOW_PRIVATE_URLS: "true" } });
  [testKey, liveKey] = [await service.createKey("--mode", "test"), await service.createKey("--mode", "live")];
  expect(testKey).toStartWith("svc_test_");
  expect(liveKey).toStartWith("svc_live_");
});

afterAll(async () => {
  await service?.stop();
  documents?.stop();
});

describe("POST /api/v1/verify analyses", () => {
  test("a multipart JPEG upload, judged by content whatever its name", async () => {
    const form = new FormData();
    form.append("document", new File([jpeg], "scan.pdf", { type: "application/pdf" }));
    const response = await verify(form);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(["data"]);
    expectResult(body.data, true);
  });

  test("a base64 PNG and a data-URL PDF", async () => {
    const fromBase64 = await verify({ document: Buffer.from(png).toString("base64") });
    expect(fromBase64.status).toBe(200);
    expectResult((await fromBase64.json()).data, true);
    const fromDataUrl = await verify({
      document: `data:application/pdf;base64,${Buffer.from(pdf).toString("base64")}`,
    });
    expect(fromDataUrl.status).toBe(200);
    expectResult((await fromDataUrl.json()).data, true);
  });

  test("a document fetched from an HTTPS URL, following a redirect", async () => {
    const response = await verify({ documentUrl: `${documents.url}/moved` });
    expect(response.status).toBe(200);
    expectResult((await response.json()).data, true);
  });

  test("with a live key, the result has no sandbox key at all", async () => {
    const response = await verify({ document: Buffer.from(jpeg).toString("base64") }, liveKey);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expectResult(data, false);
    expect("sandbox" in data).toBe(false);
  });
});

describe("GET /api/v1/verifications/:id", () => {
  test("returns a key's own result with its evidence, and hides it from other keys", async () => {
    const { data } = await (await verify({ document: Buffer.from(pdf).toString("base64") })).json();
    const own = await fetch(`${service.url}/api/v1/verifications/${data.id}`, {
      headers: { authorization: `Bearer ${testKey}` },
    });
    expect(own.status).toBe(200);
    const stored = (await own.json()).data;
    expect(stored.id).toBe(data.id);
    expect(stored.forgeryScore).toBe(data.forgeryScore);
    expect(Array.isArray(stored.evidence)).toBe(true);
    const foreign = await fetch(`${service.url}/api/v1/verifications/${data.id}`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe("NOT_FOUND");
  });
});
