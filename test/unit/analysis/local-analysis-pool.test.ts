import { afterAll, describe, expect, test } from "bun:test";
import { createLocalAnalysisPool } from "../../../src/analysis/worker/local-analysis-pool";
import { createLocalAnalyzer } from "../../../src/analysis/analyze";
import { makeJpeg, makePdf, whiteOutAndRetype } from "../../helpers/fixtures";

const pool = createLocalAnalysisPool({ workers: 2, timeLimitMs: 30_000 });
afterAll(() => pool.close());

describe("the local analysis pool", () => {
  test("gives the same report as the in-process analyzer, off the main thread", async () => {
    const pdf = makePdf();
    const document = { bytes: pdf, format: "pdf" as const };
    const [pooled, direct] = await Promise.all([pool.analyze(document), createLocalAnalyzer().analyze(document)]);
    expect(pooled.flags).toEqual(direct.flags);
    expect(pooled.forgeryScore).toBe(direct.forgeryScore);
    expect(pooled.documentType).toBe(direct.documentType);
  });

  test("keeps the event loop free while it analyses", async () => {
    const jpeg = await makeJpeg({ width: 2400, height: 1800 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await Promise.all([1, 2, 3, 4].map(() => pool.analyze({ bytes: jpeg, format: "jpeg" })));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  test("carries a document's typed error across the thread", async () => {
    const error = await pool.analyze({ bytes: new TextEncoder().encode("%PDF-1.7 garbage"), format: "pdf" }).catch((e) => e);
    expect(error.code).toBe("UNSUPPORTED_FORMAT");
  });

  test("ends a worker that overruns the time limit and keeps serving", async () => {
    const hasty = createLocalAnalysisPool({ workers: 1, timeLimitMs: 1 });
    const pdf = whiteOutAndRetype(makePdf(), 3, "Closing balance 9,999.99");
    const error = await hasty.analyze({ bytes: pdf, format: "pdf" }).catch((e) => e);
    expect(error.code).toBe("UNSUPPORTED_FORMAT");
    await hasty.close();
    const report = await pool.analyze({ bytes: pdf, format: "pdf" });
    expect(report.flags).toContain("pdf_text_overlay");
  });
});
