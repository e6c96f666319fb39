import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OcrEngine, OcrInputError, createOcrEngine } from "../../../../sidecar/ocr/engine.ts";
import { renderPrinted } from "../../../helpers/pages.ts";

let engine: OcrEngine;

beforeAll(async () => {
  engine = await createOcrEngine({ device: "cpu", maxPixels: 120_000_000, batch: { maxBatch: 8, maxWaitMs: 2 } });
});

afterAll(() => engine.close());

/** Highest resident set size seen while `work` runs, sampled every 10 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

describe("the OCR engine facing hostile image sizes", () => {
  test("reads a 12000 x 9000 page by downscaling it, with less extra memory than the page itself over a page at the detector's size", async () => {
    // 1200 x 900 pt rendered at 720 dpi: 12000 x 9000 pixels, 324 MB of RGB; at 96 dpi the same
    // page is 1600 x 1200, the detector's own size. The detector's activations take some 400 MB
    // either way (ONNX Runtime's arena is off); the huge page may add its downscaling, less than
    // its own size (it added -40 to +105 MB, the latter inside the whole suite's process). Read at
    // its own size it would need some 50 times the detector's activations.
    const line = [{ text: "Closing balance 1,234.56", font: "Helvetica" as const, size: 60, x: 100, y: 300 }];
    const page = renderPrinted(line, { dpi: 720, widthPt: 1200, heightPt: 900 });
    const detectorSized = renderPrinted(line, { dpi: 96, widthPt: 1200, heightPt: 900 });
    expect([page.width, page.height]).toEqual([12000, 9000]);
    expect([detectorSized.width, detectorSized.height]).toEqual([1600, 1200]);
    const extra = async (image: typeof page) => {
      Bun.gc(true);
      const before = process.memoryUsage.rss();
      const { result, peak } = await peakRss(() => engine.readImage(image));
      return { result, extra: peak - before };
    };
    const reference = await extra(detectorSized);
    const huge = await extra(page);
    expect(huge.result.map((read) => read.text.replace(/\s+/g, ""))).toEqual(["Closingbalance1,234.56"]);
    expect(huge.result[0]!.box[0]).toBeGreaterThan(900);
    expect(huge.extra - reference.extra).toBeLessThan(page.data.length);
  });

  test("reads a page 20000 pixels wide and 24 high without failing", async () => {
    const width = 20_000;
    const height = 24;
    const lines = await engine.readImage({ data: new Uint8Array(width * height * 3).fill(255), width, height });
    expect(lines).toEqual([]);
  });

  test("reads a 1 x 1 image without failing", async () => {
    expect(await engine.readImage({ data: new Uint8Array([0, 0, 0]), width: 1, height: 1 })).toEqual([]);
  });

  test("refuses an image over the pixel limit before touching its pixels", async () => {
    const small = await createOcrEngine({ device: "cpu", maxPixels: 1_000_000, batch: { maxBatch: 1, maxWaitMs: 0 } });
    try {
      const width = 2000;
      const height = 1000;
      const attempt = small.readImage({ data: new Uint8Array(width * height * 3), width, height });
      await expect(attempt).rejects.toBeInstanceOf(OcrInputError);
      await expect(attempt).rejects.toThrow("exceeds the 1000000 pixel limit");
    } finally {
      await small.close();
    }
  });

  test("refuses pixel data whose length does not match the stated size", async () => {
    await expect(engine.readImage({ data: new Uint8Array(100), width: 100, height: 100 })).rejects.toBeInstanceOf(
      OcrInputError,
    );
    await expect(engine.readImage({ data: new Uint8Array(0), width: 0, height: 0 })).rejects.toBeInstanceOf(
      OcrInputError,
    );
    await expect(engine.readImage({ data: new Uint8Array(3), width: 0.5, height: 6 })).rejects.toBeInstanceOf(
      OcrInputError,
    );
  });

  test("finds no text in random noise", async () => {
    const width = 800;
    const height = 600;
    const data = new Uint8Array(width * height * 3);
    let seed = 42;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      data[i] = seed >>> 24;
    }
    expect(await engine.readImage({ data, width, height })).toEqual([]);
  });
});
