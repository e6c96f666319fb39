// POST /api/v1/verify, GET /api/v1/verifications/:id and the Idempotency-Key through
// createApp in-process: what is stored, analysed and billed, with the clock under the test's
// hand so the 24-hour replay window is crossed without waiting.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Analyzer } from "../../../src/analysis/analyzer.ts";
import { IDEMPOTENCY_TTL_MS } from "../../../src/api/idempotency.ts";
import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { json, startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";
import { makeJpeg, makePdf, makePng } from "../../helpers/fixtures.ts";

let service: InProcessApp;
let testKey: string;
let liveKey: string;
let jpeg64: string;
let pdf64: string;
let png: Uint8Array;
/** Set by a test to hold analyses until it resolves: a request kept in flight on purpose. */
let hold: Promise<void> | null = null;

const RESULT_KEYS = ["confidence", "documentType", "flags", "forgeryScore", "id", "latencyMs"];

const verify = (body: FormData | object, key = testKey, idempotencyKey?: string) => {
  const headers: Record<string, string> = idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey };
  if (body instanceof FormData) return service.request("/api/v1/verify", { method: "POST", key, headers, body });
  return service.request("/api/v1/verify", json(body, { key, headers }));
};

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

beforeAll(async () => {
  // The real structure and metadata analysis, behind a gate the in-flight test closes.
  let real: Analyzer | undefined;
  const analyzer: Analyzer = {
    analyze: async (document, context) => {
      await hold;
      return real!.analyze(document, context);
    },
  };
  service = await startInProcessApp({ analyzer });
  real = createLocalAnalyzer({ now: service.clock.now });
  [testKey, liveKey] = [await service.createKey({ mode: "test" }), await service.createKey({ mode: "live" })];
  jpeg64 = Buffer.from(await makeJpeg()).toString("base64");
  pdf64 = Buffer.from(makePdf()).toString("base64");
  png = await makePng();
});

afterAll(async () => {
  await service?.close();
});

describe("POST /api/v1/verify", () => {
  test("answers 200 with the result of a multipart upload, a base64 document and a data URL, marked sandbox for a test key", async () => {
    const form = new FormData();
    form.append("document", new File([png], "scan.jpg"));
    for (const body of [form, { document: jpeg64 }, { document: `data:application/pdf;base64,${pdf64}` }]) {
      const response = await verify(body);
      expect(response.status).toBe(200);
      const { data } = await response.json();
      expect(Object.keys(data).sort()).toEqual([...RESULT_KEYS, "sandbox"].sort());
      expect(data.id).toMatch(/^ver_[0-9a-f]{32}$/);
      expect(data.sandbox).toBe(true);
      // The clock stood still during the analysis.
      expect(data.latencyMs).toBe(0);
    }
  });

  test("with a live key, the result has no sandbox key at all", async () => {
    const { data } = await (await verify({ document: jpeg64 }, liveKey)).json();
    expect(Object.keys(data).sort()).toEqual(RESULT_KEYS);
  });

  test("stores the result; GET /api/v1/verifications/:id returns it with its evidence to its key only", async () => {
    const { data } = await (await verify({ document: pdf64 })).json();
    const own = await service.request(`/api/v1/verifications/${data.id}`, { key: testKey });
    expect(own.status).toBe(200);
    const stored = (await own.json()).data;
    expect(stored).toMatchObject({
      id: data.id,
      forgeryScore: data.forgeryScore,
      confidence: data.confidence,
      flags: data.flags,
    });
    expect(Array.isArray(stored.evidence)).toBe(true);
    const foreign = await service.request(`/api/v1/verifications/${data.id}`, { key: liveKey });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe("NOT_FOUND");
  });
});

describe("an Idempotency-Key", () => {
  test("answers a retry with the first answer, byte for byte, and neither analyses nor bills it again", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 2 });
    const first = await verify({ document: jpeg64 }, trial, "order-1234");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBytes = await bytesOf(first);
    const analysed = service.analysed;

    const again = await verify({ document: jpeg64 }, trial, "order-1234");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true);
    expect(service.analysed).toBe(analysed);

    // A quota of 2: one analysis was billed, so one more passes and the next is refused.
    expect((await verify({ document: jpeg64 }, trial, "order-5678")).status).toBe(200);
    const refused = await verify({ document: jpeg64 }, trial);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("TRIAL_EXHAUSTED");
    // The kept answer is still there, and still not billed.
    const third = await verify({ document: jpeg64 }, trial, "order-1234");
    expect(third.status).toBe(200);
    expect((await bytesOf(third)).equals(firstBytes)).toBe(true);
  });

  test("with a different body gets 422 IDEMPOTENCY_KEY_REUSED, on another endpoint too", async () => {
    expect((await verify({ document: jpeg64 }, testKey, "reused-key")).status).toBe(200);
    const response = await verify({ document: pdf64 }, testKey, "reused-key");
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const batch = await service.request(
      "/api/v1/verify/batch",
      json(
        { documents: [jpeg64], callbackUrl: "https://hooks.example.com/x", callbackSecret: "0123456789abcdef" },
        { key: testKey, headers: { "idempotency-key": "reused-key" } },
      ),
    );
    expect(batch.status).toBe(422);
  });

  test("still in flight gets 409 IDEMPOTENCY_KEY_IN_USE with Retry-After; once done, the retry gets the answer", async () => {
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const first = verify({ document: jpeg64 }, testKey, "concurrent");
    while (!(await inFlight("concurrent"))) await Bun.sleep(1);
    const second = await verify({ document: jpeg64 }, testKey, "concurrent");
    expect(second.status).toBe(409);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await second.json()).error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    hold = null;
    release();
    const firstBytes = await bytesOf(await first);
    const retry = await verify({ document: jpeg64 }, testKey, "concurrent");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(retry)).equals(firstBytes)).toBe(true);
  });

  test("is kept per API key: another key's same Idempotency-Key is its own request", async () => {
    const other = await service.createKey({ mode: "test" });
    const mine = await (await verify({ document: jpeg64 }, testKey, "shared-name")).json();
    const theirs = await verify({ document: jpeg64 }, other, "shared-name");
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect((await theirs.json()).data.id).not.toBe(mine.data.id);
  });

  test("replays a multipart upload sent again with a new boundary", async () => {
    const form = () => {
      const data = new FormData();
      data.append("document", new File([png], "scan.png", { type: "image/png" }));
      return data;
    };
    const first = await verify(form(), testKey, "multipart-1");
    expect(first.status).toBe(200);
    const again = await verify(form(), testKey, "multipart-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(again)).equals(await bytesOf(first))).toBe(true);
  });

  test("keeps an answer that judges the request, such as UNSUPPORTED_FORMAT, and replays it", async () => {
    const body = { document: Buffer.from("not a document").toString("base64") };
    const first = await verify(body, testKey, "bad-document");
    expect(first.status).toBe(422);
    const firstBytes = await bytesOf(first);
    expect(JSON.parse(firstBytes.toString()).error.code).toBe("UNSUPPORTED_FORMAT");
    const again = await verify(body, testKey, "bad-document");
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await bytesOf(again)).equals(firstBytes)).toBe(true);
  });

  test("frees the key after an answer a retry could change, such as a refused quota", async () => {
    const trial = await service.createKey({ mode: "live", trialQuota: 0 });
    expect((await verify({ document: jpeg64 }, trial, "quota")).status).toBe(402);
    const again = await verify({ document: jpeg64 }, trial, "quota");
    expect(again.status).toBe(402);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  test("expires 24 hours after the first answer: the same request is then analysed afresh", async () => {
    const first = await (await verify({ document: jpeg64 }, testKey, "day-old")).json();
    service.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expect((await verify({ document: jpeg64 }, testKey, "day-old")).headers.get("idempotent-replayed")).toBe("true");
    service.clock.advance(1);
    const later = await verify({ document: jpeg64 }, testKey, "day-old");
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect((await later.json()).data.id).not.toBe(first.data.id);
  });

  test.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["not printable", "tab\there"],
  ])("that is malformed (%s) gets 400", async (_, value) => {
    const response = await verify({ document: jpeg64 }, testKey, value);
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("VALIDATION_ERROR");
  });
});

/** Whether the store holds an unfinished request under this Idempotency-Key. */
async function inFlight(idempotencyKey: string): Promise<boolean> {
  const rows = await service.testStore.read<{ n: number }>(
    `SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = '${idempotencyKey}' AND state = 'in_progress'`,
  );
  return rows[0]!.n > 0;
}
