// How much an image can tell at all: tiny or heavily compressed images hide the traces
// every pixel and table detector relies on. That lowers confidence, never the score.
import type { DetectorResult, Evidence } from "../report.ts";
import type { DetectorName } from "../manifest.ts";

export const IMAGE_QUALITY_DETECTOR = "image-quality" satisfies DetectorName;

/** Below ~0.3 MP a document photo is too small to read or to analyse. */
const MIN_PIXELS = 300_000;
/** Below IJG quality 50 compression erases fine detail and forensic traces alike. */
const MIN_JPEG_QUALITY = 50;

export const detectImageQuality = (width: number, height: number, jpegQuality?: number): DetectorResult => {
  const evidence: Evidence[] = [];
  const pixels = width * height;
  if (pixels < MIN_PIXELS) {
    evidence.push({
      flag: "low_quality",
      detector: IMAGE_QUALITY_DETECTOR,
      strength: 1,
      message: `Image is small (${width}x${height})`,
      measured: pixels,
      threshold: MIN_PIXELS,
    });
  }
  if (jpegQuality !== undefined && jpegQuality < MIN_JPEG_QUALITY) {
    evidence.push({
      flag: "low_quality",
      detector: IMAGE_QUALITY_DETECTOR,
      strength: 1,
      message: `Heavily compressed (JPEG quality ${jpegQuality})`,
      measured: jpegQuality,
      threshold: MIN_JPEG_QUALITY,
    });
  }
  return {
    detector: IMAGE_QUALITY_DETECTOR,
    evidence,
    facts: { width, height, ...(jpegQuality !== undefined ? { jpegQuality } : {}) },
    coverage: 1,
  };
};
