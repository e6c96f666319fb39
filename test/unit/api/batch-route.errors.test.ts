// POST /api/v1/verify/batch's refusals at submission, through createApp in-process: nothing
// here needs the analyser, the worker or a receiver.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { startBatchApp } from "../../helpers/batch-app.ts";

let service: InProcessApp;
let key: string;
let jpeg64: string;
const callbackUrl = "https://hooks.example.com/docverify";
const callbackSecret = "0123456789abcdef";

const submit = (body: unknown, apiKey = key) => service.request("/api/v1/verify/batch", json(body, { key: apiKey }));

const codeOf = async (response: Response) => ({ status: response.status, code: (await response.json()).error?.code });

beforeAll(async () => {
  ({ service, key, jpeg64 } = await startBatchApp());
});

afterAll(async () => {
  await service?.close();
});

describe("POST /api/v1/verify/batch refuses", () => {
  test("more than 50 documents with 400 VALIDATION_ERROR", async () => {
    expect(await codeOf(await submit({ documents: Array(51).fill("AAAA"), callbackUrl, callbackSecret }))).toEqual({
      status: 400,
      code: "VALIDATION_ERROR",
    });
  });

  test("an empty documents array, or a missing field, with 400 VALIDATION_ERROR", async () => {
    expect(await codeOf(await submit({ documents: [], callbackUrl, callbackSecret }))).toEqual({
      status: 400,
      code: "VALIDATION_ERROR",
    });
    expect(await codeOf(await submit({ documents: [jpeg64], callbackSecret }))).toEqual({
      status: 400,
      code: "VALIDATION_ERROR",
    });
  });

  test("a callbackSecret under 16 characters with 400 VALIDATION_ERROR", async () => {
    expect(await codeOf(await submit({ documents: [jpeg64], callbackUrl, callbackSecret: "short" }))).toEqual({
      status: 400,
      code: "VALIDATION_ERROR",
    });
  });

  test("a callbackUrl that is not HTTPS with 400 VALIDATION_ERROR", async () => {
    expect(
      await codeOf(await submit({ documents: [jpeg64], callbackUrl: "http://hooks.example.com/x", callbackSecret })),
    ).toEqual({ status: 400, code: "VALIDATION_ERROR" });
  });

  test("a document that is not base64 with 400 VALIDATION_ERROR", async () => {
    const response = await submit({ documents: [jpeg64, "%%%not base64%%%"], callbackUrl, callbackSecret });
    const body = await response.json();
    expect({ status: response.status, code: body.error.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
    // The refusal names the document.
    expect(body.error.details).toEqual([expect.objectContaining({ path: "/documents/1" })]);
  });

  test("a body of 4,500,000 bytes or more with 422 FILE_TOO_LARGE", async () => {
    const padding = "A".repeat(4_500_000);
    expect(await codeOf(await submit({ documents: [padding], callbackUrl, callbackSecret }))).toEqual({
      status: 422,
      code: "FILE_TOO_LARGE",
    });
  });

  test("a batch larger than what is left of a trial with 402 TRIAL_EXHAUSTED, storing nothing", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 2 });
    expect(
      await codeOf(await submit({ documents: [jpeg64, jpeg64, jpeg64], callbackUrl, callbackSecret }, trial)),
    ).toEqual({ status: 402, code: "TRIAL_EXHAUSTED" });
    expect(await service.testStore.read("SELECT id FROM batches")).toEqual([]);
    expect(service.wakes.batchWorker).toBe(0);
  });

  test("a request without a valid key with 401 UNAUTHORIZED", async () => {
    expect(await codeOf(await submit({ documents: [jpeg64], callbackUrl, callbackSecret }, "svc_live_nope"))).toEqual({
      status: 401,
      code: "UNAUTHORIZED",
    });
  });

  test("a callbackUrl on a private address, when private URLs are refused (the default), with 400 VALIDATION_ERROR", async () => {
    const strict = await startInProcessApp();
    try {
      const strictKey = await strict.createKey({ mode: "test" });
      const response = await strict.request(
        "/api/v1/verify/batch",
        json({ documents: [jpeg64], callbackUrl: "https://127.0.0.1:9/hooks", callbackSecret }, { key: strictKey }),
      );
      expect(await codeOf(response)).toEqual({ status: 400, code: "VALIDATION_ERROR" });
    } finally {
      await strict.close();
    }
  });
});
