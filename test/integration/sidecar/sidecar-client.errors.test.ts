// The client when sidecars die: errors become a retryable SERVICE_UNAVAILABLE, the embedded
// sidecar is restarted and used again, and among several sidecars a dead one is passed over.
import { afterAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../../src/log.ts";
import { createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { type SidecarService, createSidecarService } from "../../../src/sidecar-client/index.ts";
import { PAGE_TEXT, readText, textPdf } from "./fixtures.ts";
import { SIDECAR_COMMAND, type SidecarProcess, startSidecarProcess } from "../../helpers/sidecar-process.ts";

const log = createLogger("error");
/**
 * What each test leaves to stop: a process kill or a client close, awaited when it returns a
 * promise.
 */
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function waitUntilReady(service: SidecarService, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const readiness = await service.ready();
    if (readiness.ok) return readiness.detail;
    if (Date.now() > until) throw new Error(`not ready: ${readiness.detail}`);
    await Bun.sleep(100);
  }
}

const pidOf = (detail: string) => Number(/pid (\d+)/.exec(detail)?.[1]);

describe("serve's embedded sidecar", () => {
  test("is started as a child, reported in readiness, restarted after SIGKILL, and used again", async () => {
    const service = await createSidecarService({ sidecar: [], sidecarDevice: "cpu" }, log, {
      embeddedCommand: SIDECAR_COMMAND,
      embeddedFlags: ["--log-level", "error"],
    });
    cleanup.push(() => service.close());
    expect(await service.ready()).toEqual({ ok: false, detail: "embedded sidecar starting" });
    const detail = await waitUntilReady(service, 30_000);
    expect(detail).toMatch(/^embedded sidecar pid \d+ at 127\.0\.0\.1:\d+: serving$/);
    const pid = pidOf(detail);

    // Killed while it reads a ten-page document.
    const pending = service.analyzeDocument({ format: "pdf", bytes: textPdf({ pages: 10 }) }).catch((e) => e);
    await Bun.sleep(500);
    process.kill(pid, "SIGKILL");
    const error = await pending;
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true, retryAfterSec: 5 });

    const restarted = await waitUntilReady(service, 30_000);
    expect(pidOf(restarted)).not.toBe(pid);
    const [page] = (await service.analyzeDocument({ format: "pdf", bytes: textPdf() })).pages;
    expect(readText(page!.lines)).toEqual(PAGE_TEXT);
  }, 60_000);

  test("does not outlive an API process that is killed", async () => {
    const parent = Bun.spawn([process.execPath, `${import.meta.dir}/embedding-parent.ts`], {
      stdout: "pipe",
      stderr: "inherit",
    });
    cleanup.push(() => parent.kill("SIGKILL"));
    const reader = parent.stdout.getReader();
    let output = "";
    while (!output.includes("\n")) output += new TextDecoder().decode((await reader.read()).value);
    const childPid = Number(output.trim());
    expect(isAlive(childPid)).toBe(true);
    parent.kill("SIGKILL");
    await parent.exited;
    const until = Date.now() + 10_000;
    while (isAlive(childPid) && Date.now() < until) await Bun.sleep(100);
    expect(isAlive(childPid)).toBe(false);
  }, 40_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a client of two remote sidecars", () => {
  test("spreads calls over both, and sends every call to the live one when the other is killed", async () => {
    const sidecars: SidecarProcess[] = await Promise.all([startSidecarProcess(), startSidecarProcess()]);
    cleanup.push(() => Promise.all(sidecars.map((s) => s.stop())));
    const [first, second] = sidecars as [SidecarProcess, SidecarProcess];
    const client = createSidecarClient({ targets: [first.address, second.address], log });
    cleanup.push(() => client.close());
    const document = { format: "pdf" as const, bytes: textPdf({ lines: ["Balanced"], heightPt: 120 }) };

    const before = [await client.analyzeDocument(document), await client.analyzeDocument(document)].map(
      (r) => r.sidecar,
    );
    expect(before.sort()).toEqual([first.address, second.address].sort());

    first.process.kill("SIGKILL");
    await first.process.exited;
    for (let i = 0; i < 4; i++) {
      const result = await client.analyzeDocument(document);
      expect(result.sidecar).toBe(second.address);
      expect(readText(result.pages[0]!.lines)).toEqual(["Balanced"]);
    }
    expect(await client.ready()).toEqual({ ok: true, detail: `1/2 sidecars serving (not serving: ${first.address})` });

    second.process.kill("SIGKILL");
    await second.process.exited;
    const started = performance.now();
    expect(await client.analyzeDocument(document).catch((e) => e)).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      retryable: true,
      retryAfterSec: 5,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await client.ready()).ok).toBe(false);
  }, 60_000);
});
