// POST /api/v1/verify with a documentUrl, in-process: the real guarded fetcher against a
// loopback HTTPS document server whose CA the fetcher is told to trust, so only the address
// policy, the size limit or the server's answer can stop a fetch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls.ts";
import { loopbackUrls } from "../../helpers/loopback-urls.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";

let open: InProcessApp;
let strict: InProcessApp;
let openKey: string;
let strictKey: string;
let documents: TestHttpsServer;
let hits = 0;

const verify = (service: InProcessApp, key: string, body: object, idempotencyKey?: string) =>
  service.request(
    "/api/v1/verify",
    json(body, { key, headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey } }),
  );

const codeOf = async (response: Response) => ({ status: response.status, code: (await response.json()).error?.code });

beforeAll(async () => {
  const tls = await makeTestCa();
  const [jpeg, pdf] = [await makeJpeg(), makePdf()];
  documents = await startHttpsServer((request) => {
    hits++;
    const path = new URL(request.url).pathname;
    if (path === "/a.jpg") return new Response(jpeg, { headers: { "content-type": "image/jpeg" } });
    if (path === "/statement.pdf")
      return new Response(pdf, { headers: { "content-type": "application/octet-stream" } });
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/statement.pdf" } });
    if (path === "/huge.pdf")
      return new Response(new Uint8Array(10_000_001), { headers: { "content-type": "application/pdf" } });
    return new Response("gone", { status: 404 });
  }, tls);
  // Private URLs allowed, so the loopback server can be reached; and refused (the default).
  open = await startInProcessApp({ env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true" }, ca: tls.caPem });
  strict = await startInProcessApp({ ca: tls.caPem });
  openKey = await open.createKey();
  strictKey = await strict.createKey();
});

afterAll(async () => {
  await Promise.all([open?.close(), strict?.close()]);
  documents?.stop();
});

describe("a documentUrl", () => {
  test("is fetched and analysed, following a redirect", async () => {
    const response = await verify(open, openKey, { documentUrl: `${documents.url}/moved` });
    expect(response.status).toBe(200);
    expect((await response.json()).data.id).toMatch(/^ver_[0-9a-f]{32}$/);
  });

  test("over 10,000,000 bytes gets 422 FILE_TOO_LARGE", async () => {
    expect(await codeOf(await verify(open, openKey, { documentUrl: `${documents.url}/huge.pdf` }))).toEqual({
      status: 422,
      code: "FILE_TOO_LARGE",
    });
  });

  test("that answers 404, or where nothing listens, gets 422 FETCH_FAILED", async () => {
    expect(await codeOf(await verify(open, openKey, { documentUrl: `${documents.url}/missing.jpg` }))).toEqual({
      status: 422,
      code: "FETCH_FAILED",
    });
    expect(await codeOf(await verify(open, openKey, { documentUrl: "https://127.0.0.1:1/a.pdf" }))).toEqual({
      status: 422,
      code: "FETCH_FAILED",
    });
  });

  test("that could not be fetched frees its Idempotency-Key: a retry could pass", async () => {
    const body = { documentUrl: "https://127.0.0.1:1/statement.pdf" };
    const first = await verify(open, openKey, body, "unreachable");
    expect(await codeOf(first)).toEqual({ status: 422, code: "FETCH_FAILED" });
    const again = await verify(open, openKey, body, "unreachable");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("with private URLs refused (the default)", () => {
  test("a documentUrl on loopback, by name or by number, is never fetched: 422 FETCH_FAILED", async () => {
    const before = hits;
    const port = documents.port;
    for (const url of loopbackUrls(port, "/a.jpg")) {
      const response = await verify(strict, strictKey, { documentUrl: url });
      expect({ url, ...(await codeOf(response)) }).toEqual({ url, status: 422, code: "FETCH_FAILED" });
    }
    expect(hits).toBe(before);
  });

  test("a documentUrl on a cloud metadata address is refused", async () => {
    expect(
      await codeOf(await verify(strict, strictKey, { documentUrl: "https://169.254.169.254/latest/meta-data/" })),
    ).toEqual({ status: 422, code: "FETCH_FAILED" });
  });

  test("a callbackUrl on a private address is refused at submission with 400 VALIDATION_ERROR", async () => {
    for (const callbackUrl of [
      "https://127.0.0.1/hook",
      "https://10.0.0.7/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
    ]) {
      const response = await strict.request(
        "/api/v1/verify/batch",
        json({ documents: ["AAAA"], callbackUrl, callbackSecret: "s".repeat(16) }, { key: strictKey }),
      );
      expect({ callbackUrl, ...(await codeOf(response)) }).toEqual({
        callbackUrl,
        status: 400,
        code: "VALIDATION_ERROR",
      });
    }
  });

  test("no log line carries document bytes or the key", async () => {
    await verify(strict, strictKey, { document: Buffer.from("sensitive-content-marker").toString("base64") });
    const logs = JSON.stringify(strict.logs);
    expect(logs).not.toContain("sensitive-content-marker");
    expect(logs).not.toContain(Buffer.from("sensitive-content-marker").toString("base64"));
    expect(logs).not.toContain(strictKey);
  });
});
