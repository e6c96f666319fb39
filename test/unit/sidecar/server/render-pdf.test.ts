// The sidecar's PDF render workers (sidecar/server/render-pdf.ts): mupdf's heap in each is
// capped (src/runtime/mupdf-memory-cap.ts; Bun has no heap limit for a worker), and a PDF that
// would grow it past the cap is refused as over a limit while its worker is replaced; the caps
// are counted out of the memory limit before pages are sized; a worker left idle is ended.
import { afterAll, describe, expect, test } from "bun:test";
import { status } from "@grpc/grpc-js";
import { PDFDocument } from "pdf-lib";
import { DEFAULT_LIMITS } from "../../../../sidecar/server/limits.ts";
import { createPdfRenderer } from "../../../../sidecar/server/render-pdf.ts";
import { BYTES_PER_PIXEL, planSidecarMemory } from "../../../../sidecar/server/memory-budget.ts";
import { DocumentRefused } from "../../../../sidecar/server/errors.ts";
import { makePdf } from "../../../helpers/fixtures.ts";
import { largeJpeg, largePng, manyPagesPdf } from "../../../helpers/hostile.ts";
import { eventually } from "../../../helpers/service.ts";

const MIB = 1024 * 1024;
// mupdf starts with 22 MiB of WebAssembly memory; opening 40,000 pages takes it to 27.7 MB.
const capped = createPdfRenderer({ workers: 1, limits: DEFAULT_LIMITS, mupdfHeapBytes: 24 * MIB });
afterAll(() => capped.close());

const pages = async (bytes: Uint8Array) => {
  const sizes: string[] = [];
  const count = await capped.render(bytes, new AbortController().signal, async (page) => {
    sizes.push(`${page.image.width}x${page.image.height}`);
  });
  return { count, sizes };
};

describe("render workers' mupdf heap", () => {
  test("a PDF that would grow it past the cap is refused as over a limit; the next gets a fresh worker", async () => {
    const refused = await pages(manyPagesPdf()).catch((e) => e);
    expect(refused).toBeInstanceOf(DocumentRefused);
    expect({ code: refused.code, message: refused.message }).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      message:
        "the PDF needs more than the 24 MiB of memory each render worker may use (its share of the memory limit)",
    });
    expect(await pages(makePdf())).toEqual({ count: 1, sizes: ["1240x1755"] });
  });

  test("the workers' caps come out of the memory limit before pages are sized", () => {
    const left = 1_500_000_000 - 384 * MIB;
    const plan = planSidecarMemory(1_500_000_000, 2);
    expect(plan.renderWorkers).toBe(2);
    expect(plan.renderWorkerHeapBytes).toBe(Math.floor(left * 0.1));
    // The base, both workers' heaps and the garbage margin are out of the pages' budget.
    expect(plan.pages.totalBytes).toBe(1_500_000_000 - (384 * MIB + 3 * Math.floor(left * 0.1)));
    expect(plan.maxPagePixels).toBe(Math.floor(plan.pages.totalBytes / BYTES_PER_PIXEL));
    expect(planSidecarMemory(16_000_000_000, 2).renderWorkerHeapBytes).toBe(
      Math.floor((16_000_000_000 - 384 * MIB) * 0.1),
    );
  });

  test("a limit too small for two workers' heaps gets one", () => {
    const plan = planSidecarMemory(512_000_000, 2);
    expect({ workers: plan.renderWorkers, heap: plan.renderWorkerHeapBytes }).toEqual({ workers: 1, heap: 48 * MIB });
    expect(plan.pages.totalBytes).toBeGreaterThan(0);
  });
});

describe("render workers whose mupdf grew", () => {
  test("past half their cap are replaced, so that a later scan is not refused in a fragmented heap", async () => {
    // Before, the 8.7 MP scan was refused by the worker that had rendered the two 35 MP ones.
    const renderer = createPdfRenderer({ workers: 1, limits: DEFAULT_LIMITS, mupdfHeapBytes: 105 * MIB });
    const scanPdf = async (image: Uint8Array, png: boolean) => {
      const pdf = await PDFDocument.create();
      const embedded = png ? await pdf.embedPng(image) : await pdf.embedJpg(image);
      pdf.addPage([595, 842]).drawImage(embedded, { x: 0, y: 0, width: 595, height: 842 });
      return pdf.save();
    };
    const scans = [
      await scanPdf(await largeJpeg(4960, 7016), false),
      await scanPdf(await largePng(4960, 7016), true),
      await scanPdf(await largePng(2480, 3508), true),
    ];
    try {
      for (const scan of scans)
        expect(await renderer.render(scan, new AbortController().signal, async () => {})).toBe(1);
    } finally {
      await renderer.close();
    }
  });
});

describe("render workers left idle", () => {
  test("are ended, and the next PDF gets a fresh one", async () => {
    let ended = 0;
    const brief = createPdfRenderer({
      workers: 1,
      limits: DEFAULT_LIMITS,
      idleWorkerMs: 50,
      onIdleWorkerEnded: () => ended++,
    });
    const render = () => brief.render(makePdf(), new AbortController().signal, async () => {});
    try {
      expect(await render()).toBe(1);
      await eventually(() => (ended === 1 ? true : undefined), 10_000, 20);
      expect(await render()).toBe(1);
      await eventually(() => (ended === 2 ? true : undefined), 10_000, 20);
    } finally {
      await brief.close();
    }
  });
});
