import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/errors.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";

describe("the local analyzer on documents it cannot judge", () => {
  test("bytes mupdf cannot open as a PDF are UNSUPPORTED_FORMAT", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7\nnot really a pdf");
    const error = await createLocalAnalyzer()
      .analyze({ bytes, format: "pdf" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("an image over the pixel limit is FILE_TOO_LARGE before any decoding", async () => {
    const jpeg = await makeJpeg({ width: 200, height: 200 });
    const error = await createLocalAnalyzer({ limits: { maxPixels: 10_000 } })
      .analyze({ bytes: jpeg, format: "jpeg" })
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe("FILE_TOO_LARGE");
  });

  test("a truncated JPEG is refused with a typed error, not a crash", async () => {
    const jpeg = await makeJpeg({ width: 200, height: 200 });
    const error = await createLocalAnalyzer()
      .analyze({ bytes: jpeg.slice(0, 40), format: "jpeg" })
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe("UNSUPPORTED_FORMAT");
  });

  test("a spent time budget skips the remaining pages and lowers confidence instead of failing", async () => {
    let t = 0;
    const report = await createLocalAnalyzer({ limits: { timeBudgetMs: 5 }, now: () => (t += 10) }).analyze({
      bytes: makePdf({ pages: 3 }),
      format: "pdf",
    });
    expect(report.confidence).not.toBe("high");
    const fonts = report.detectors.find((d) => d.detector === "pdf-fonts")!;
    expect(fonts.coverage).toBe(0);
    expect(fonts.facts.unreadPages).toBe(3);
    // Only the fusion's prior for a document without flags (0.15): the skipped pages add nothing.
    expect(report.forgeryScore).toBeLessThan(0.16);
  });

  test("a tiny, heavily compressed image is low_quality, without high confidence or a score that accuses", async () => {
    const jpeg = await makeJpeg({ width: 120, height: 90, quality: 30 });
    const report = await createLocalAnalyzer().analyze({ bytes: jpeg, format: "jpeg" });
    expect(report.flags).toEqual(["low_quality"]);
    // What could not be examined keeps the score nearer the prior than a clean, fully examined
    // document's (~0.05), and far from the verdict line: a blind spot never accuses.
    expect(report.forgeryScore).toBeLessThan(0.25);
    expect(report.confidence).not.toBe("high");
  });
});
