// The operations endpoints of a real `serve`: readiness waits for the embedded sidecar to
// load its models, and /metrics carries the queue gauges serve registers. The OpenAPI document
// and Swagger UI are checked in-process in test/unit/api/openapi.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService } from "../../helpers/service.ts";

let service: TestService;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
});

describe("operations endpoints need no key", () => {
  test("/healthz answers ok and /readyz reports the store and the analyser", async () => {
    expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: "ok" });
    // The embedded sidecar loads its models after the API listens: not ready, then ready.
    const body = await eventually(async () => {
      const ready = await fetch(`${service.url}/readyz`);
      return ready.status === 200 ? ready.json() : undefined;
    }, 120_000);
    expect(body.checks.store.ok).toBe(true);
    expect(body.checks.analyzer.ok).toBe(true);
  });

  test("/metrics is Prometheus text with the service's own series", async () => {
    await fetch(`${service.url}/healthz`);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toContain("# TYPE docverify_http_request_duration_seconds histogram");
    expect(text).toContain("docverify_webhook_deliveries_pending");
  });
});
