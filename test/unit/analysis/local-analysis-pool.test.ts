import { afterAll, describe, expect, test } from "bun:test";
import { createLocalAnalysisPool } from "../../../src/analysis/worker/local-analysis-pool.ts";
import { inspectDocument } from "../../../src/analysis/analyze.ts";
import { DEFAULT_LIMITS } from "../../../src/analysis/detector.ts";
import { analysisWorkerHeapBytes } from "../../../src/analysis/memory-estimate.ts";
import { makeJpeg, makePdf, whiteOutAndRetype } from "../../helpers/fixtures.ts";
import { eventually } from "../../helpers/service.ts";

const pool = createLocalAnalysisPool({ workers: 2, timeLimitMs: 30_000 });
afterAll(() => pool.close());

describe("the local analysis pool", () => {
  test("inspects a document off the main thread exactly as in process", async () => {
    const document = { bytes: whiteOutAndRetype(makePdf(), 3, "Closing balance 9,999.99"), format: "pdf" as const };
    const [pooled, direct] = await Promise.all([
      pool.inspect(document),
      inspectDocument(document, DEFAULT_LIMITS, Date.now),
    ]);
    const evidence = (inspection: typeof direct) => inspection.detectors.flatMap((detector) => detector.evidence);
    expect(evidence(pooled)).toEqual(evidence(direct));
    expect(evidence(pooled).map((item) => item.flag)).toContain("pdf_text_overlay");
    expect(pooled.text).toEqual(direct.text);
  });

  test("keeps the event loop free while it analyses", async () => {
    const jpeg = await makeJpeg({ width: 2400, height: 1800 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await Promise.all([1, 2, 3, 4].map(() => pool.inspect({ bytes: jpeg, format: "jpeg" })));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  test("carries a document's typed error across the thread", async () => {
    const error = await pool
      .inspect({ bytes: new TextEncoder().encode("%PDF-1.7 garbage"), format: "pdf" })
      .catch((e) => e);
    expect(error.code).toBe("UNSUPPORTED_FORMAT");
  });

  test("ends a worker that overruns the time limit and keeps serving", async () => {
    const hasty = createLocalAnalysisPool({ workers: 1, timeLimitMs: 1 });
    const pdf = whiteOutAndRetype(makePdf(), 3, "Closing balance 9,999.99");
    const error = await hasty.inspect({ bytes: pdf, format: "pdf" }).catch((e) => e);
    expect(error.code).toBe("UNSUPPORTED_FORMAT");
    await hasty.close();
    const inspection = await pool.inspect({ bytes: pdf, format: "pdf" });
    expect(inspection.detectors.flatMap((detector) => detector.evidence.map((item) => item.flag))).toContain(
      "pdf_text_overlay",
    );
  });

  test("runs intake's PDF check in a worker: a PDF that opens passes, a cut-off or deeply nested one is refused", async () => {
    const { deeplyNestedQPdf } = await import("../../helpers/hostile.ts");
    const pdf = makePdf();
    await pool.validatePdf(pdf);
    expect((await pool.validatePdf(pdf.subarray(0, pdf.length - 40)).catch((e) => e)).code).toBe("UNSUPPORTED_FORMAT");
    const nested = await pool.inspect({ bytes: deeplyNestedQPdf(), format: "pdf" }).catch((e) => e);
    expect({ code: nested.code, message: nested.message }).toMatchObject({
      code: "UNSUPPORTED_FORMAT",
      message: expect.stringContaining("nests deeper"),
    });
  });

  test("replaces a worker after its quota of documents and keeps serving", async () => {
    const recycled = createLocalAnalysisPool({ workers: 1, timeLimitMs: 30_000, documentsPerWorker: 1 });
    const pdf = makePdf();
    for (let i = 0; i < 3; i++) expect((await recycled.inspect({ bytes: pdf, format: "pdf" })).pages).toBe(1);
    await recycled.close();
  });

  test("ends a worker left without a document, and starts another for the next", async () => {
    let ended = 0;
    const brief = createLocalAnalysisPool({
      workers: 1,
      timeLimitMs: 30_000,
      idleWorkerMs: 50,
      onIdleWorkerEnded: () => ended++,
    });
    try {
      const pdf = makePdf();
      expect((await brief.inspect({ bytes: pdf, format: "pdf" })).pages).toBe(1);
      await eventually(() => (ended === 1 ? true : undefined), 10_000, 20);
      expect((await brief.inspect({ bytes: pdf, format: "pdf" })).pages).toBe(1);
      await eventually(() => (ended === 2 ? true : undefined), 10_000, 20);
    } finally {
      await brief.close();
    }
  });

  test("keeps a worker that gets its next document in time", async () => {
    let ended = 0;
    const kept = createLocalAnalysisPool({
      workers: 1,
      timeLimitMs: 30_000,
      idleWorkerMs: 60_000,
      onIdleWorkerEnded: () => ended++,
    });
    try {
      for (let i = 0; i < 3; i++) expect((await kept.inspect({ bytes: makePdf(), format: "pdf" })).pages).toBe(1);
      expect(ended).toBe(0);
    } finally {
      await kept.close();
    }
  });

  test("a PDF that would grow mupdf's heap past the worker's cap is refused with 422, and the worker replaced", async () => {
    const { manyPagesPdf } = await import("../../helpers/hostile.ts");
    // mupdf starts with 22 MiB of WebAssembly memory; 40,000 pages take it to 27.7 MB.
    const capped = createLocalAnalysisPool({ workers: 1, timeLimitMs: 30_000, mupdfHeapBytes: 24 * 1024 * 1024 });
    try {
      const refused = await capped.inspect({ bytes: manyPagesPdf(), format: "pdf" }).catch((e) => e);
      expect({ code: refused.code, message: refused.message }).toEqual({
        code: "FILE_TOO_LARGE",
        message:
          "The PDF needs more than the 24 MiB of memory each analysis worker may use (its share of DOCVERIFY_MEMORY_LIMIT)",
      });
      // Intake's check runs under the same cap.
      expect((await capped.validatePdf(manyPagesPdf()).catch((e) => e)).code).toBe("FILE_TOO_LARGE");
      // The next document gets a fresh worker, whose heap is whole.
      expect((await capped.inspect({ bytes: makePdf(), format: "pdf" })).pages).toBe(1);
    } finally {
      await capped.close();
    }
    // Uncapped, the same PDF is read.
    expect((await pool.inspect({ bytes: manyPagesPdf(), format: "pdf" })).pages).toBe(40_000);
  });
});

describe("the analysis workers' mupdf heap cap", () => {
  test("shares what DOCVERIFY_MEMORY_LIMIT leaves the documents among the workers, at most mupdf's 2 GiB", () => {
    expect(analysisWorkerHeapBytes(1_500_000_000, 2)).toBe(Math.floor((1_500_000_000 - 256 * 1024 * 1024) / 2));
    expect(analysisWorkerHeapBytes(16_000_000_000, 2)).toBe(2 * 1024 * 1024 * 1024);
  });
});
