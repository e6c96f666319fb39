// The operations routes and the refusals that depend on the process's state (shutting down,
// not ready, no turn free for a verify), through createApp in-process with that state in
// the test's hands.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Analyzer } from "../../../src/analysis/analyzer.ts";
import { createVerifyAdmission } from "../../../src/limits/verify-admission.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

let jpeg64: string;
const opened: InProcessApp[] = [];

async function open(...args: Parameters<typeof startInProcessApp>): Promise<InProcessApp> {
  const service = await startInProcessApp(...args);
  opened.push(service);
  return service;
}

beforeAll(async () => {
  jpeg64 = Buffer.from(await makeJpeg()).toString("base64");
});

afterAll(async () => {
  await Promise.all(opened.map((service) => service.close()));
});

describe("operations endpoints need no key", () => {
  test("/healthz answers ok and /readyz reports each check, 503 while one fails", async () => {
    let analyzerUp = false;
    const service = await open({
      overrides: {
        readiness: async () => ({
          ready: analyzerUp,
          checks: { store: { ok: true }, analyzer: { ok: analyzerUp, detail: "models loading" } },
        }),
      },
    });
    expect(await (await service.request("/healthz")).json()).toEqual({ status: "ok" });
    const loading = await service.request("/readyz");
    expect(loading.status).toBe(503);
    expect(await loading.json()).toEqual({
      status: "not_ready",
      checks: { store: { ok: true }, analyzer: { ok: false, detail: "models loading" } },
    });
    analyzerUp = true;
    const ready = await service.request("/readyz");
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe("ready");
  });

  test("/metrics is Prometheus text with the request series of the routes answered", async () => {
    const service = await open();
    await service.request("/healthz");
    // Elysia records the request after the response is handed back: give it a turn.
    await Bun.sleep(0);
    const text = await (await service.request("/metrics")).text();
    expect(text).toContain("# TYPE docverify_http_request_duration_seconds histogram");
    expect(text).toContain('route="/healthz"');
  });
});

describe("the process's state", () => {
  test("once shutdown began, API requests get 503 SERVICE_UNAVAILABLE with Retry-After before authentication", async () => {
    let accepting = true;
    const service = await open({ overrides: { accepting: () => accepting } });
    const key = await service.createKey();
    expect((await service.request("/api/v1/verify", json({ document: jpeg64 }, { key }))).status).toBe(200);
    accepting = false;
    for (const response of [
      await service.request("/api/v1/verify", json({ document: jpeg64 }, { key })),
      await service.request("/api/v1/verify", json({})),
    ]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect((await response.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    }
    // Probes still answer.
    expect((await service.request("/healthz")).status).toBe(200);
  });

  test("a verify with no turn free and no room to wait gets 503 at once, and nothing is billed", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let real: Analyzer | undefined;
    // The real analysis, held so that the one turn stays taken.
    const analyzer: Analyzer = {
      analyze: async (document, context) => {
        await held;
        return real!.analyze(document, context);
      },
    };
    const service = await open({
      analyzer,
      overrides: { verifyAdmission: createVerifyAdmission({ concurrent: 1, queued: 0, maxWaitMs: 1000 }) },
    });
    real = createLocalAnalyzer({ now: service.clock.now });
    const trial = await service.createKey({ mode: "live", trialQuota: 2 });
    const first = service.request("/api/v1/verify", json({ document: jpeg64 }, { key: trial }));
    while (service.analysed === 0) await Bun.sleep(1);
    const refused = await service.request("/api/v1/verify", json({ document: jpeg64 }, { key: trial }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await refused.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    release();
    expect((await first).status).toBe(200);
    // The refused one gave its reservation back: the second of two documents still passes.
    expect((await service.request("/api/v1/verify", json({ document: jpeg64 }, { key: trial }))).status).toBe(200);
  });
});
