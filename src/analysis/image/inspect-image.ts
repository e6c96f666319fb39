// Runs the image detectors (metadata, JPEG tables, double compression, quality).
import sharp from "sharp";
import { AppError } from "../../errors";
import { runDetector, type AnalysisLimits, type Budget } from "../detector";
import type { DetectorName } from "../manifest";
import type { DetectorResult } from "../report";
import { detectDoubleCompression, DOUBLE_COMPRESSION_DETECTOR } from "./double-compression";
import { parseJpegStructure } from "../../jpeg/markers";
import { detectJpegTables, JPEG_TABLES_DETECTOR, summarizeTables, type JpegTablesSummary } from "./jpeg-tables";
import { detectImageMetadata, IMAGE_METADATA_DETECTOR } from "./metadata";
import { detectImageQuality, IMAGE_QUALITY_DETECTOR } from "./quality";

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

  const detectors: DetectorResult[] = [await runDetector(IMAGE_METADATA_DETECTOR, () => detectImageMetadata(bytes, now))];
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
        ? await runDetector(DOUBLE_COMPRESSION_DETECTOR, () => detectDoubleCompression(bytes, summary, limits.maxPixels))
        : skipped(DOUBLE_COMPRESSION_DETECTOR, summary ? "time budget spent" : "no quantization tables"),
    );
  }
  detectors.push(await runDetector(IMAGE_QUALITY_DETECTOR, () => detectImageQuality(width, height, tables?.quality)));
  return { detectors, width, height };
};
