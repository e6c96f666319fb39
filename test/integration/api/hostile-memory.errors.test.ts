// Documents that cost memory their headers do not declare (issue 12): a progressive JPEG with
// hundreds of scans, PNGs whose compressed ICC profile or text chunk inflates to hundreds of
// megabytes, and images large enough that analysing them at full size would pass
// DOCVERIFY_MEMORY_LIMIT. Each is refused in the envelope or analysed within the limit, and
// every process of the service stays under it, during and after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService, uploadDocument } from "../../helpers/service.ts";
import { iccBombPng, largeJpeg, largePng, manyScanJpeg, textBombPng } from "../../helpers/hostile.ts";
import { mb, serviceMemory, type ProcessMemory } from "../../helpers/process-memory.ts";

const MEMORY_LIMIT = 1_500_000_000;
/** After a spike every process comes back to within 20% of its idle size (issue 12). */
const SETTLED_SHARE = 1.2;

let service: TestService;
let small: TestService;
let key: string;
let smallKey: string;
let idle: ProcessMemory[];

beforeAll(async () => {
  [service, small] = await Promise.all([startService(), startService({ env: { DOCVERIFY_MEMORY_LIMIT: "512MB" } })]);
  [key, smallKey] = await Promise.all([service.createKey("--mode", "test"), small.createKey("--mode", "test")]);
  // Idle is a service that is ready: before that the embedded sidecar is still loading its models.
  await Promise.all(
    [service, small].map((target) =>
      eventually(async () => ((await fetch(`${target.url}/readyz`)).ok ? true : undefined), 90_000, 100),
    ),
  );
  idle = serviceMemory(service.process.pid);
});

afterAll(async () => {
  await Promise.all([service?.stop(), small?.stop()]);
});

const expectRefused = async (response: Response, code: string, says: string) => {
  const body = await response.json();
  expect({ status: response.status, code: body.error?.code }).toEqual({ status: 422, code });
  expect(body.error.message).toContain(says);
  expect(body.error.requestId).toMatch(/^req_/);
};

const line = (label: string, list: ProcessMemory[]) =>
  `${label}: ${list.map((p) => `pid ${p.pid} rss ${mb(p.rss)} MB peak ${mb(p.peak)} MB`).join("; ")}`;

describe("what a header does not declare is bounded before decoding", () => {
  test("a progressive JPEG with 600 scans", async () => {
    await expectRefused(await uploadDocument(service, key, await manyScanJpeg(60)), "FILE_TOO_LARGE", "scans");
  });
  test("a PNG whose ICC profile inflates to 200 MB", async () => {
    await expectRefused(await uploadDocument(service, key, await iccBombPng()), "FILE_TOO_LARGE", "ICC profile");
  });
  test("a PNG whose zTXt chunk inflates to 200 MB", async () => {
    await expectRefused(await uploadDocument(service, key, await textBombPng()), "FILE_TOO_LARGE", "zTXt");
  });
});

describe("large images are analysed within the memory limit", () => {
  test("a 13-megapixel PNG (once a sidecar crash) is analysed", async () => {
    const response = await uploadDocument(service, key, await largePng(4200, 3100));
    expect(response.status).toBe(200);
    await response.json();
  });
  test("a 45-megapixel JPEG is analysed, its pages scaled to what the memory allows", async () => {
    const response = await uploadDocument(service, key, await largeJpeg(7800, 5800));
    expect(response.status).toBe(200);
    await response.json();
  });
  test("no process passed the limit, and each settles back to within 20% of its idle size", async () => {
    const peak = serviceMemory(service.process.pid);
    const started = Date.now();
    const idleRss = new Map(idle.map((process) => [process.pid, process.rss]));
    const bound = (process: ProcessMemory) => (idleRss.get(process.pid) ?? 0) * SETTLED_SHARE;
    // Memory is given back once nothing is in flight: the API ends its analysis workers after
    // 2 s without a document, then each process collects and trims its heaps. Measured on 2
    // cores, 3 s on the API is 2-15% above idle, and 1-4% once JavaScriptCore has returned its
    // free pages a second or two later; the sidecar within 1% of idle or below. The 15 s after
    // the first 3 are slack for a loaded machine, not for memory.
    await Bun.sleep(3_000);
    let settled = serviceMemory(service.process.pid);
    for (let waited = 0; waited < 15_000 && settled.some((process) => process.rss > bound(process)); waited += 250) {
      await Bun.sleep(250);
      settled = serviceMemory(service.process.pid);
    }
    const after = `settled ${((Date.now() - started) / 1000).toFixed(1)} s later`;
    console.log([line("idle", idle), line("after the hostile images", peak), line(after, settled)].join("\n"));
    expect(settled.map((process) => process.pid)).toEqual(idle.map((process) => process.pid));
    for (const process of settled) {
      expect(process.peak).toBeLessThan(MEMORY_LIMIT);
      expect(process.rss).toBeLessThanOrEqual(bound(process));
    }
  });
});

describe("with DOCVERIFY_MEMORY_LIMIT=512MB", () => {
  test("an image whose analysis would pass the limit is refused with 422 and says why", async () => {
    await expectRefused(
      await uploadDocument(small, smallKey, await largeJpeg(6000, 5000)),
      "FILE_TOO_LARGE",
      "DOCVERIFY_MEMORY_LIMIT",
    );
  });
  test("a photo-sized image is still analysed, and no process passes 512 MB", async () => {
    const response = await uploadDocument(small, smallKey, await largeJpeg(3000, 2000));
    expect(response.status).toBe(200);
    await response.json();
    const processes = serviceMemory(small.process.pid);
    console.log(line("512MB limit", processes));
    for (const process of processes) expect(process.peak).toBeLessThan(512_000_000);
  });
});
