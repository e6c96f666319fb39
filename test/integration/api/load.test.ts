// A bounded load test against a real `serve` on loopback (issue 12): 32 clients send
// synchronous verifies back to back for 20 s. Past what the analysers can take, verifies wait
// in a bounded queue and beyond it are answered 503 with Retry-After: never another 5xx,
// never a timeout, with bounded latency and bounded memory in every process.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startService, type TestService } from "../../helpers/service.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";
import { mb, serviceMemory } from "../../helpers/process-memory.ts";
import { rankQuantile } from "../../../src/numeric.ts";

const CLIENTS = 32;
const DURATION_MS = 20_000;
const QUEUE_WAIT_MS = 5_000;
const MEMORY_LIMIT = 1_500_000_000;

let service: TestService;
let key: string;

beforeAll(async () => {
  // A short queue and wait, so that 32 clients on a small machine find its end.
  service = await startService({
    env: {
      DOCVERIFY_VERIFY_QUEUE: "8",
      DOCVERIFY_VERIFY_QUEUE_WAIT: `${QUEUE_WAIT_MS}ms`,
      DOCVERIFY_LOG_LEVEL: "warn",
    },
  });
  key = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
});

interface Outcome {
  status: number;
  ms: number;
  retryAfter: string | null;
  code?: string;
}

test(`${CLIENTS} clients for ${DURATION_MS / 1000} s: 200 or 503 with Retry-After, bounded latency and memory`, async () => {
  const documents = await Promise.all([1, 2, 3, 4].map((seed) => makeJpeg({ width: 800, height: 600, seed })));
  const idle = serviceMemory(service.process.pid);
  const outcomes: Outcome[] = [];
  let peakQueue = 0;
  const stopAt = Date.now() + DURATION_MS;

  const client = async (index: number) => {
    for (let n = 0; Date.now() < stopAt; n++) {
      const form = new FormData();
      form.append("document", new File([documents[(index + n) % documents.length]!], "document.jpg"));
      const started = performance.now();
      const response = await fetch(`${service.url}/api/v1/verify`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
        signal: AbortSignal.timeout(60_000),
      });
      const body = (await response.json()) as { error?: { code: string } };
      outcomes.push({
        status: response.status,
        ms: performance.now() - started,
        retryAfter: response.headers.get("retry-after"),
        code: body.error?.code,
      });
      // A refused client waits as told (a little less, to keep the pressure on).
      if (response.status === 503) await Bun.sleep(Number(response.headers.get("retry-after") ?? 1) * 250);
    }
  };
  const sampler = setInterval(async () => {
    const metrics = await fetch(`${service.url}/metrics`).then((r) => r.text());
    peakQueue = Math.max(peakQueue, Number(/^docverify_verify_queue_length (\d+)/m.exec(metrics)?.[1] ?? 0));
  }, 500);
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  clearInterval(sampler);

  const under = serviceMemory(service.process.pid);
  await Bun.sleep(3_000);
  const settled = serviceMemory(service.process.pid);
  const byStatus = Object.groupBy(outcomes, (o) => String(o.status));
  const ok = byStatus["200"] ?? [];
  const busy = byStatus["503"] ?? [];
  const latencies = outcomes.map((o) => o.ms);
  const line = (label: string, list: ReturnType<typeof serviceMemory>) =>
    `${label}: ${list.map((p) => `pid ${p.pid} rss ${mb(p.rss)} MB peak ${mb(p.peak)} MB`).join("; ")}`;
  console.log(
    [
      `load: ${outcomes.length} answers, ${ok.length} × 200, ${busy.length} × 503, p50 ${Math.round(rankQuantile(latencies, 0.5))} ms, p99 ${Math.round(rankQuantile(latencies, 0.99))} ms, peak queue ${peakQueue}`,
      line("idle", idle),
      line("end of load", under),
      line("settled 3 s later", settled),
    ].join("\n"),
  );

  expect(Object.keys(byStatus).filter((status) => status !== "200" && status !== "503")).toEqual([]);
  expect(ok.length).toBeGreaterThan(0);
  for (const refused of busy) {
    expect(refused.code).toBe("SERVICE_UNAVAILABLE");
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // A verify waits at most the queue limit and then runs one analysis of a small JPEG.
  expect(rankQuantile(latencies, 0.99)).toBeLessThan(QUEUE_WAIT_MS + 25_000);
  expect(peakQueue).toBeLessThanOrEqual(8);
  for (const process of settled) expect(process.peak).toBeLessThan(MEMORY_LIMIT);
  const metrics = await fetch(`${service.url}/metrics`).then((r) => r.text());
  expect(metrics).toContain("docverify_verify_queue_wait_seconds_bucket");
  expect(metrics).toContain("docverify_verify_queue_length");
}, 90_000);
