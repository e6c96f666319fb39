// The OpenAPI document and Swagger UI as the app serves them, in-process through
// createApp: what integrators read, checked against the contract, the error codes, the flag
// vocabulary and the detector manifest, then fed to the tools they use.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { FLAG_CLASSES, FLAGS } from "../../../src/analysis/flags.ts";
import { DETECTORS, detectorsOfFlag } from "../../../src/analysis/manifest.ts";
import { ERROR_CODES } from "../../../src/errors.ts";

let service: InProcessApp;
let spec: any;

beforeAll(async () => {
  service = await startInProcessApp();
  spec = await (await service.request("/openapi.json")).json();
});

afterAll(async () => {
  await service?.close();
});

const findEnum = (node: unknown, predicate: (values: unknown[]) => boolean): boolean => {
  if (!node || typeof node !== "object") return false;
  const record = node as Record<string, unknown>;
  const values = Array.isArray(record.enum)
    ? record.enum
    : Array.isArray(record.anyOf)
      ? (record.anyOf as { const?: unknown }[]).map((option) => option?.const)
      : null;
  if (values && predicate(values)) return true;
  return Object.values(record).some((child) => findEnum(child, predicate));
};

describe("the OpenAPI document", () => {
  test("lists every endpoint of the contract with bearer auth", () => {
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/verify",
        "/api/v1/verify/batch",
        "/api/v1/batches/{batchId}",
        "/api/v1/verifications/{id}",
        "/healthz",
        "/readyz",
        "/metrics",
      ]),
    );
    expect(spec.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
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
    expect(Object.keys(hook.requestBody.content["application/json"].schema.properties)).toEqual([
      "batchId",
      "documentIndex",
      "result",
      "error",
    ]);
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
    expect(Object.keys(spec.paths["/api/v1/verify"].post.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "402",
      "409",
      "422",
      "429",
      "503",
    ]);
  });

  test("documents the Idempotency-Key header on both endpoints that analyse", () => {
    for (const path of ["/api/v1/verify", "/api/v1/verify/batch"]) {
      const parameter = spec.paths[path].post.parameters.find((p: { name: string }) => p.name === "Idempotency-Key");
      expect(parameter).toEqual(
        expect.objectContaining({ in: "header", required: false, example: expect.any(String) }),
      );
      expect(parameter.schema).toEqual(expect.objectContaining({ minLength: 1, maxLength: 255 }));
    }
  });

  test("has the error codes as the enum of error.code and the flag vocabulary as the enum of flags", () => {
    const sameSet = (expected: readonly string[]) => (values: unknown[]) =>
      values.length === expected.length && expected.every((value) => values.includes(value));
    expect(findEnum(spec, sameSet(ERROR_CODES))).toBe(true);
    expect(findEnum(spec, sameSet(FLAGS))).toBe(true);
  });

  test("classes every flag as evidence of alteration, a provenance concern or informational", () => {
    const classes = JSON.parse(JSON.stringify(spec.paths).match(/"x-flag-classes":(\{[^}]*\})/)![1]!);
    expect(classes).toEqual(FLAG_CLASSES);
    expect(spec.info.description).toContain("Evidence of alteration: `pdf_font_inconsistency`");
  });

  test("names the detectors behind each flag from the detector manifest", () => {
    const detectors = JSON.parse(JSON.stringify(spec.paths).match(/"x-flag-detectors":(\{[^}]*\})/)![1]!);
    expect(detectors).toEqual(Object.fromEntries(FLAGS.map((flag) => [flag, detectorsOfFlag(flag)])));
    expect(detectors.copy_move).toEqual(["copy-move"]);
    const flagging = DETECTORS.filter((d) => d.flags.length > 0).map((d) => d.name);
    expect(
      findEnum(spec, (values) => values.length === flagging.length && flagging.every((name) => values.includes(name))),
    ).toBe(true);
  });
});

const REPO = resolve(import.meta.dir, "../../..");
const bin = (name: string) => join(REPO, "node_modules/.bin", name);

async function run(command: string[], cwd: string) {
  const child = Bun.spawn(command, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, exitCode };
}

describe("the OpenAPI document in integrators' tools", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "docverify-openapi-"));
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec, null, 2));
  });

  test("passes Redocly's recommended rules with no error and no warning", async () => {
    const result = await run(
      [bin("redocly"), "lint", "openapi.json", "--config", join(REPO, "redocly.yaml"), "--format=json"],
      dir,
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(result.exitCode).toBe(0);
  }, 120_000);

  test("every /api operation has an operationId, bearer security, a 4XX answer and examples; the others need no key", () => {
    for (const [path, item] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const operation of Object.values<any>(item)) {
        expect(operation.operationId).toEqual(expect.any(String));
        if (!path.startsWith("/api/")) {
          expect(operation.security).toEqual([]);
          continue;
        }
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses).some((status) => status.startsWith("4"))).toBe(true);
        const success = Object.entries<any>(operation.responses).find(([status]) => status.startsWith("2"))![1];
        expect(JSON.stringify(success.content["application/json"].schema)).toContain('"examples"');
      }
    }
  });

  test("shows the response headers of idempotent replays and of waits", () => {
    for (const [path, status] of [
      ["/api/v1/verify", "200"],
      ["/api/v1/verify/batch", "202"],
    ] as const) {
      const headers = spec.paths[path].post.responses[status].headers;
      expect(headers["Idempotent-Replayed"]).toEqual(expect.objectContaining({ example: "true" }));
      expect(spec.paths[path].post.responses["409"].headers["Retry-After"]).toEqual(
        expect.objectContaining({ example: 1 }),
      );
      expect(spec.paths[path].post.responses["409"].description).toContain("IDEMPOTENCY_KEY_IN_USE");
      expect(spec.paths[path].post.responses["422"].description).toContain("IDEMPOTENCY_KEY_REUSED");
    }
  });

  test("a client generated by openapi-typescript compiles against it", async () => {
    const generated = await run([bin("openapi-typescript"), "openapi.json", "--output", "api.ts"], dir);
    expect(generated.exitCode).toBe(0);
    writeFileSync(
      join(dir, "client.ts"),
      `import type { paths, webhooks } from "./api";
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Verify = paths["/api/v1/verify"]["post"];
const result: Json<Verify["responses"]["200"]> = {
  data: { id: "ver_3f0c1a9e2b7d4c6f8a1e0b2c3d4e5f60", forgeryScore: 0.91, confidence: "high", documentType: "financial", flags: ["pdf_text_overlay"], latencyMs: 412 },
};
// @ts-expect-error a flag outside the vocabulary is refused
const unknownFlag: Json<Verify["responses"]["200"]>["data"]["flags"][number] = "no_such_flag";
const replayed: NonNullable<NonNullable<Verify["responses"]["200"]["headers"]>["Idempotent-Replayed"]> = "true";
const idempotencyKey: NonNullable<Verify["parameters"]["header"]>["Idempotency-Key"] = "5f1c9a2e-8d4b-4f3a-9c7e-1b2d3e4f5a6b";
const inUse: Json<Verify["responses"]["409"]>["error"]["code"] = "IDEMPOTENCY_KEY_IN_USE";
const log: Json<paths["/api/v1/batches/{batchId}/deliveries"]["get"]["responses"]["200"]> = {
  data: {
    batchId: "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918",
    deliveries: [{ deliveryId: "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b", documentIndex: 0, state: "failed", nextAttemptAt: null,
      attempts: [{ attempt: 1, kind: "scheduled", at: "2026-11-22T10:00:01.000Z", durationMs: 84, status: null, error: "connect ECONNREFUSED" }] }],
  },
};
const redelivered: Json<paths["/api/v1/batches/{batchId}/deliveries/{deliveryId}/redeliver"]["post"]["responses"]["202"]>["data"]["state"] = "delivered";
const box: NonNullable<Json<paths["/api/v1/verifications/{id}"]["get"]["responses"]["200"]>["data"]["evidence"][number]["box"]> = [1, 2, 3, 4];
const hook: webhooks["batchDocumentResult"]["post"]["requestBody"]["content"]["application/json"] = { batchId: "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918", documentIndex: 0, error: { code: "UNSUPPORTED_FORMAT", message: "m" } };
export const used = [result, unknownFlag, replayed, idempotencyKey, inUse, log, redelivered, box, hook];
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          skipLibCheck: true,
          types: [],
          lib: ["es2022"],
        },
        files: ["client.ts"],
      }),
    );
    const compiled = await run([bin("tsc"), "-p", "tsconfig.json"], dir);
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.exitCode).toBe(0);
  }, 120_000);
});

describe("Swagger UI", () => {
  test("is served at /docs with its scripts and styles from the service itself", async () => {
    const html = await (await service.request("/docs")).text();
    expect(html).toContain("/docs/assets/swagger-ui-bundle.js");
    expect(html).toContain("/docs/assets/swagger-ui.css");
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn\.jsdelivr)/);
    const script = await service.request("/docs/assets/swagger-ui-bundle.js");
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await service.request("/docs/assets/swagger-ui.css")).headers.get("content-type")).toContain("text/css");
  });
});
