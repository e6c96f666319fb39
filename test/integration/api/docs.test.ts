import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService } from "../../helpers/service";
import { FLAG_CLASSES, FLAGS } from "../../../src/analysis/flags";
import { ERROR_CODES } from "../../../src/errors";

let service: TestService;
let spec: any;

beforeAll(async () => {
  service = await startService();
  spec = await (await fetch(`${service.url}/openapi.json`)).json();
});

afterAll(async () => {
  await service?.stop();
});

const findEnum = (node: unknown, predicate: (values: unknown[]) => boolean): boolean => {
  if (!node || typeof node !== "object") return false;
  const record = node as Record<string, unknown>;
  const values = Array.isArray(record.enum) ? record.enum : Array.isArray(record.anyOf) ? (record.anyOf as { const?: unknown }[]).map((option) => option?.const) : null;
  if (values && predicate(values)) return true;
  return Object.values(record).some((child) => findEnum(child, predicate));
};

describe("the OpenAPI document", () => {
  test("lists every endpoint of the contract with bearer auth", () => {
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/api/v1/verify", "/api/v1/verify/batch", "/api/v1/batches/{batchId}", "/api/v1/verifications/{id}", "/healthz", "/readyz", "/metrics"]),
    );
    expect(spec.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(spec.paths["/api/v1/verify"].post.security).toEqual([{ bearerAuth: [] }]);
  });

  test("documents the batch webhook with its payload and signature headers", () => {
    const hook = spec.webhooks.batchDocumentResult.post;
    expect(hook.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      "X-Service-Signature",
      "X-Service-Delivery",
      "X-Service-Timestamp",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
    expect(Object.keys(hook.requestBody.content["application/json"].schema.properties)).toEqual(["batchId", "documentIndex", "result", "error"]);
  });

  test("documents the delivery log and redelivery with their responses", () => {
    const log = spec.paths["/api/v1/batches/{batchId}/deliveries"].get;
    expect(Object.keys(log.responses).sort()).toEqual(["200", "401", "404", "429"]);
    expect(log.security).toEqual([{ bearerAuth: [] }]);
    const redeliver = spec.paths["/api/v1/batches/{batchId}/deliveries/{deliveryId}/redeliver"].post;
    expect(Object.keys(redeliver.responses).sort()).toEqual(["202", "401", "404", "429"]);
    expect(JSON.stringify(redeliver.responses["202"])).toContain('"redelivery"');
  });

  test("declares every response status of POST /api/v1/verify", () => {
    expect(Object.keys(spec.paths["/api/v1/verify"].post.responses).sort()).toEqual(["200", "400", "401", "402", "409", "422", "429", "503"]);
  });

  test("documents the Idempotency-Key header on both endpoints that analyse", () => {
    for (const path of ["/api/v1/verify", "/api/v1/verify/batch"]) {
      const parameter = spec.paths[path].post.parameters.find((p: { name: string }) => p.name === "Idempotency-Key");
      expect(parameter).toEqual(expect.objectContaining({ in: "header", required: false, example: expect.any(String) }));
      expect(parameter.schema).toEqual(expect.objectContaining({ minLength: 1, maxLength: 255 }));
    }
  });

  test("has the error codes as the enum of error.code and the flag vocabulary as the enum of flags", () => {
    const sameSet = (expected: readonly string[]) => (values: unknown[]) => values.length === expected.length && expected.every((value) => values.includes(value));
    expect(findEnum(spec, sameSet(ERROR_CODES))).toBe(true);
    expect(findEnum(spec, sameSet(FLAGS))).toBe(true);
  });

  test("classes every flag as evidence of alteration, a provenance concern or informational", () => {
    const classes = JSON.parse(JSON.stringify(spec.paths).match(/"x-flag-classes":(\{[^}]*\})/)![1]!);
    expect(classes).toEqual(FLAG_CLASSES);
    expect(spec.info.description).toContain("Evidence of alteration: `pdf_font_inconsistency`");
  });
});

describe("Swagger UI", () => {
  test("is served at /docs with its scripts and styles from the service itself", async () => {
    const html = await (await fetch(`${service.url}/docs`)).text();
    expect(html).toContain("/docs/assets/swagger-ui-bundle.js");
    expect(html).toContain("/docs/assets/swagger-ui.css");
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn\.jsdelivr)/);
    const script = await fetch(`${service.url}/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${service.url}/docs/assets/swagger-ui.css`)).headers.get("content-type")).toContain("text/css");
  });
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
