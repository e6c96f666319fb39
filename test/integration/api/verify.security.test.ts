import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service.ts";
import { makeTestCa, startHttpsServer, type TestHttpsServer } from "../../helpers/tls.ts";
import { loopbackUrls } from "../../helpers/loopback-urls.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

let service: TestService;
let key: string;
let server: TestHttpsServer;
let hits = 0;

const post = (path: string, body: object) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  const tls = await makeTestCa();
  const jpeg = await makeJpeg();
  server = await startHttpsServer(() => {
    hits++;
    return new Response(jpeg, { headers: { "content-type": "image/jpeg" } });
  }, tls);
  // The CA is trusted, so only the address policy can stop these requests.
  service = await startService({ env: { NODE_EXTRA_CA_CERTS: tls.caFile } });
  key = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
  server?.stop();
});

describe("with private URLs refused (the default)", () => {
  test("a documentUrl on loopback, by name or by number, is never fetched: 422 FETCH_FAILED", async () => {
    const port = server.port;
    for (const url of loopbackUrls(port, "/a.jpg")) {
      const response = await post("/api/v1/verify", { documentUrl: url });
      expect({ url, status: response.status, code: (await response.json()).error.code }).toEqual({
        url,
        status: 422,
        code: "FETCH_FAILED",
      });
    }
    expect(hits).toBe(0);
  });

  test("a documentUrl on a cloud metadata address is refused", async () => {
    const response = await post("/api/v1/verify", { documentUrl: "https://169.254.169.254/latest/meta-data/" });
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe("FETCH_FAILED");
  });

  test("a callbackUrl on a private address is refused at submission with 400 VALIDATION_ERROR", async () => {
    for (const callbackUrl of [
      "https://127.0.0.1/hook",
      "https://10.0.0.7/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
    ]) {
      const response = await post("/api/v1/verify/batch", {
        documents: ["AAAA"],
        callbackUrl,
        callbackSecret: "s".repeat(16),
      });
      expect({ callbackUrl, status: response.status, code: (await response.json()).error.code }).toEqual({
        callbackUrl,
        status: 400,
        code: "VALIDATION_ERROR",
      });
    }
  });

  test("no log line carries document bytes or the key", async () => {
    await post("/api/v1/verify", { document: Buffer.from("sensitive-content-marker").toString("base64") });
    expect(service.logs()).not.toContain("sensitive-content-marker");
    expect(service.logs()).not.toContain(Buffer.from("sensitive-content-marker").toString("base64"));
    expect(service.logs()).not.toContain(key);
  });
});
