import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { measureDoubleCompression } from "../../../src/analysis/image/double-compression.ts";
import { doubleCompressionThreshold } from "../../../src/analysis/thresholds.ts";
import { parseJpegStructure } from "../../../src/jpeg/markers.ts";
import { summarizeTables } from "../../../src/analysis/image/jpeg-tables.ts";
import { cameraExif, makeJpeg, resaveJpeg } from "../../helpers/fixtures.ts";

const size = { width: 640, height: 480 };

const measure = async (jpeg: Uint8Array) => {
  const tables = summarizeTables(parseJpegStructure(jpeg));
  const r = await measureDoubleCompression(jpeg, tables.lumaTable!, 50_000_000);
  return { ...r, detected: r.score > doubleCompressionThreshold(tables.quality!) };
};

describe("double JPEG compression", () => {
  test("single compression at q70..95 is not taken for double", async () => {
    for (const quality of [70, 75, 80, 85, 90, 95]) {
      const r = await measure(await makeJpeg({ ...size, quality, seed: 100 + quality }));
      expect({ quality, detected: r.detected }).toEqual({ quality, detected: false });
    }
  });

  test("q90 re-saved at q75 is detected", async () => {
    const r = await measure(await resaveJpeg(await makeJpeg({ ...size, quality: 90, seed: 7 }), 75));
    expect(r.detected).toBe(true);
  });

  test("q70 re-saved at q90 is detected, and the first quality is estimated", async () => {
    const r = await measure(await resaveJpeg(await makeJpeg({ ...size, quality: 70, seed: 8 }), 90));
    expect(r.detected).toBe(true);
    expect(Math.abs(r.estimatedPrimaryQuality! - 70)).toBeLessThanOrEqual(3);
  });

  test("a messaging-app re-save alone stays a minor concern", async () => {
    const once = await resaveJpeg(await makeJpeg({ ...size, quality: 70, seed: 9 }), 90);
    const report = await createLocalAnalyzer().analyze({ bytes: once, format: "jpeg" });
    expect(report.flags).toEqual(["double_jpeg_compression"]);
    expect(report.forgeryScore).toBeLessThan(0.4);
  });

  test("double compression beside an editor's name is a provenance concern: under the verdict line, never high confidence", async () => {
    const edited = await resaveJpeg(await makeJpeg({ ...size, quality: 70, seed: 9, exif: cameraExif() }), 90, {
      exif: cameraExif({ IFD0: { Software: "Adobe Photoshop 25.0" } }),
    });
    const report = await createLocalAnalyzer().analyze({ bytes: edited, format: "jpeg" });
    expect(report.flags.sort()).toEqual(["double_jpeg_compression", "editing_software"]);
    // Re-saved by an editor is what an issuer's specimen or a cropped photo is too: no sign of
    // what changed, so no accusation.
    expect(report.forgeryScore).toBeLessThan(0.5);
    expect(report.confidence).not.toBe("high");
  });
});
