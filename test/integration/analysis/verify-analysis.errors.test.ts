// When no sidecar can answer: a single verify is refused with 503 and Retry-After, readiness
// says why, and a batch document waits and is analysed once a sidecar answers again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort } from "../../helpers/free-port.ts";
import { makePdf } from "../../helpers/fixtures.ts";
import { statementLines } from "../../helpers/documents.ts";
import { eventually, startService, type TestService } from "../../helpers/service.ts";
import { type SidecarProcess, startSidecarProcess } from "../../helpers/sidecar-process.ts";

let service: TestService;
let key: string;
let port: number;
let sidecar: SidecarProcess | undefined;
const pdf = makePdf({ lines: statementLines() });

beforeAll(async () => {
  port = freePort();
  service = await startService({
    env: { DOCVERIFY_SIDECAR: `127.0.0.1:${port}`, DOCVERIFY_ALLOW_PRIVATE_URLS: "true" },
  });
  key = await service.createKey("--mode", "test");
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await sidecar?.stop();
});

describe("a service whose sidecar cannot be reached", () => {
  test("answers a single verify with 503 SERVICE_UNAVAILABLE and Retry-After", async () => {
    const response = await fetch(`${service.url}/api/v1/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ document: Buffer.from(pdf).toString("base64") }),
    });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  test("is not ready, and says the sidecar is why", async () => {
    const response = await fetch(`${service.url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { checks: { analyzer: { ok: boolean; detail: string } } };
    expect(body.checks.analyzer).toMatchObject({ ok: false });
    expect(body.checks.analyzer.detail).toContain(`127.0.0.1:${port}`);
  });

  test("keeps a batch document waiting, and analyses it once a sidecar answers at that address", async () => {
    const submitted = await fetch(`${service.url}/api/v1/verify/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        documents: [Buffer.from(pdf).toString("base64")],
        callbackUrl: "https://127.0.0.1:9/hook",
        callbackSecret: "a-callback-secret-of-some-length",
      }),
    });
    expect(submitted.status).toBe(202);
    const { batchId } = ((await submitted.json()) as { data: { batchId: string } }).data;
    const status = async () =>
      (
        (await (
          await fetch(`${service.url}/api/v1/batches/${batchId}`, { headers: { authorization: `Bearer ${key}` } })
        ).json()) as {
          data: { status: string; completedCount: number; verificationIds: string[] };
        }
      ).data;

    await eventually(
      () => (service.logs().includes("batch document handed back; will retry") ? true : undefined),
      10_000,
    );
    expect(await status()).toMatchObject({ status: "processing", completedCount: 0 });

    sidecar = await startSidecarProcess(["--sidecar-listen", `127.0.0.1:${port}`]);
    const done = await eventually(
      async () => {
        const now = await status();
        return now.status === "completed" ? now : undefined;
      },
      30_000,
      250,
    );
    expect(done.verificationIds).toHaveLength(1);
  }, 50_000);
});
