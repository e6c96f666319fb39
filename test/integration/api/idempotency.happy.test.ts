// Idempotency-Key through a real service where only a real fetch shows it: an answer a retry
// could change (a document URL that could not be fetched) frees the key. Replays, conflicts,
// requests in flight, the per-key scope, kept refusals and batches are tested in-process in
// test/unit/api/verify-route.happy.test.ts and test/unit/api/batch-route.happy.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service";

let service: TestService;
let testKey: string;

const verify = (body: object, apiKey: string, idempotencyKey: string) =>
  fetch(`${service.url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": idempotencyKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  service = await startService({ env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true" } });
  testKey = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
});

describe("POST /api/v1/verify with an Idempotency-Key", () => {
  test("frees the key after an answer a retry could change, such as a document URL that could not be fetched", async () => {
    const body = { documentUrl: "https://127.0.0.1:1/statement.pdf" };
    const first = await verify(body, testKey, "unreachable");
    expect(first.status).toBe(422);
    expect((await first.json()).error.code).toBe("FETCH_FAILED");
    const again = await verify(body, testKey, "unreachable");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});
