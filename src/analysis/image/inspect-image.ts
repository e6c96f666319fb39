// Runs the image detectors (metadata, JPEG tables, double compression, quality).
import sharp from "sharp";
import { AppError } from "../../errors.ts";
import { runDetector, type AnalysisLimits, type Budget } from "../detector.ts";
import type { DetectorName } from "../manifest.ts";
import type { DetectorResult } from "../report.ts";
import { detectDoubleCompression, DOUBLE_COMPRESSION_DETECTOR } from "./double-compression.ts";
import { parseJpegStructure } from "../../jpeg/markers.ts";
import { detectJpegTables, JPEG_TABLES_DETECTOR, summarizeTables, type JpegTablesSummary } from "./jpeg-tables.ts";
import { detectImageMetadata, IMAGE_METADATA_DETECTOR } from "./metadata.ts";
import { detectImageQuality, IMAGE_QUALITY_DETECTOR } from "./quality.ts";

export interface ImageInspection {
  detectors: DetectorResult[];
  width: number;
  height: number;
}

const skipped = (detector: DetectorName, reason: string): DetectorResult => ({
  detector,
  evidence: [],
  facts: { skipped: reason },
  coverage: 0,
});

export const inspectImage = async (
  bytes: Uint8Array,
  format: "jpeg" | "png",
  limits: AnalysisLimits,
  budget: Budget,
  now: number,
): Promise<ImageInspection> => {
  let width = 0;
  let height = 0;
  try {
    // Reading the header decodes no pixels; the limit is checked right after.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch (cause) {
    throw new AppError("UNSUPPORTED_FORMAT", "The image could not be read", { cause });
  }
  if (width * height > limits.maxPixels) {
    throw new AppError("FILE_TOO_LARGE", `The image exceeds ${limits.maxPixels} pixels`);
  }

  const detectors: DetectorResult[] = [
    await runDetector(IMAGE_METADATA_DETECTOR, () => detectImageMetadata(bytes, now)),
  ];
  let tables: JpegTablesSummary | undefined;
  if (format === "jpeg") {
    detectors.push(
      await runDetector(JPEG_TABLES_DETECTOR, () => {
        const structure = parseJpegStructure(bytes);
        tables = summarizeTables(structure);
        return detectJpegTables(structure);
      }),
    );
    const summary = tables;
    detectors.push(
      summary && !budget.expired()
        ? await runDetector(DOUBLE_COMPRESSION_DETECTOR, () =>
            detectDoubleCompression(bytes, summary, limits.maxPixels),
          )
        : skipped(DOUBLE_COMPRESSION_DETECTOR, summary ? "time budget spent" : "no quantization tables"),
    );
  }
  detectors.push(await runDetector(IMAGE_QUALITY_DETECTOR, () => detectImageQuality(width, height, tables?.quality)));
  return { detectors, width, height };
};
