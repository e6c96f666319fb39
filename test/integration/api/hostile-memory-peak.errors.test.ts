// The sidecar's heaviest loads at the default DOCVERIFY_MEMORY_LIMIT (issue 12): a PDF of several
// pages each rendered at the largest size the memory budget allows, and four large images sent
// at once. Measured before the sidecar counted its render workers' mupdf memory and the garbage a
// page leaves behind, the sidecar peaked at 1,559 MiB and 1,466 MiB on these, past the limit.
// Each answer is 200, or a refusal in the error envelope (422, or 503 with Retry-After), and no
// process of the service passes the limit while they are analysed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService, uploadDocument } from "../../helpers/service.ts";
import { largeJpeg, largePagePdf, largePng } from "../../helpers/hostile.ts";
import { mb, resetPeaks, serviceMemory, type ProcessMemory } from "../../helpers/process-memory.ts";

const MEMORY_LIMIT = 1_500_000_000;

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startService();
  key = await service.createKey("--mode", "test");
  await eventually(async () => ((await fetch(`${service.url}/readyz`)).ok ? true : undefined), 90_000, 100);
});

afterAll(async () => {
  await service?.stop();
});

const upload = (bytes: Uint8Array) => uploadDocument(service, key, bytes);

/** 200, or a refusal in the envelope: 422, or 503 that says when to try again. Never another 5xx. */
const expectAnsweredOrRefused = async (response: Response) => {
  const body = await response.json();
  expect([200, 422, 503]).toContain(response.status);
  if (response.status === 200) return;
  expect(body.error?.code).toBeString();
  expect(body.error.requestId).toMatch(/^req_/);
  if (response.status === 503) expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
};

/** Runs `load` with every process's peak counted from now, and checks none passed the limit. */
async function peaksDuring(label: string, load: () => Promise<void>): Promise<void> {
  resetPeaks(serviceMemory(service.process.pid));
  await load();
  const processes: ProcessMemory[] = serviceMemory(service.process.pid);
  console.log(`${label}: ${processes.map((p) => `pid ${p.pid} rss ${mb(p.rss)} MB peak ${mb(p.peak)} MB`).join("; ")}`);
  for (const process of processes) expect(process.peak).toBeLessThan(MEMORY_LIMIT);
}

describe("the sidecar stays under the memory limit at its heaviest", () => {
  test("a PDF of three 2400×3000 pt pages", async () => {
    const pdf = await largePagePdf(3);
    await peaksDuring("three large PDF pages", async () => {
      const response = await upload(pdf);
      expect(response.status).toBe(200);
      await response.json();
    });
  });

  test("four large images at once", async () => {
    const images = await Promise.all([
      largePng(4200, 3100),
      largeJpeg(7800, 5800),
      largePng(4100, 3200),
      largeJpeg(7700, 5800),
    ]);
    await peaksDuring("four large images at once", async () => {
      const responses = await Promise.all(images.map((image) => upload(image)));
      console.log(`four large images at once answered ${responses.map((response) => response.status).join(", ")}`);
      for (const response of responses) await expectAnsweredOrRefused(response);
    });
  });
});
