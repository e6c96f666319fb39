// JPEG and PNG into upright 8-bit RGB with sharp. The header is read first so a decompression
// bomb is refused by what it declares, before a single pixel is decoded; decoding then runs
// with sharp's own pixel limit and a time limit as a second line.
import sharp, { type Metadata } from "sharp";
import type { ImageFacts } from "../../proto/generated/docverify/sidecar/v1/ImageFacts.ts";
import type { RgbImage } from "../image/rgb.ts";
import { invalidDocument, overLimit } from "./errors.ts";
import { type DocumentLimits, fitScale } from "./limits.ts";
import { BYTES_PER_PIXEL } from "./memory-budget.ts";
import { countJpegStructure } from "../../src/intake/jpeg-structure.ts";
import { checkPngChunks } from "../../src/intake/png-chunks.ts";

export interface DecodedPage {
  image: RgbImage;
  /** Pixels per inch of `image`; 0 when the file declares no density. */
  dpi: number;
  /** Size before scaling: pixels after EXIF rotation (images) or points (PDF pages). */
  sourceWidth: number;
  sourceHeight: number;
  /** image pixels per source unit. */
  scale: number;
  facts: ImageFacts;
}

/**
 * `admit` is called once the header is read with what decoding and analysing the image will
 * hold (memory-budget.ts), before a pixel is decoded; it waits for room or refuses.
 */
export async function decodeImage(
  bytes: Uint8Array,
  format: "jpeg" | "png",
  limits: DocumentLimits,
  admit?: (bytes: number) => Promise<void>,
): Promise<DecodedPage> {
  const label = format.toUpperCase();
  // What the header does not declare (scans, metadata), bounded as the API's intake bounds it:
  // a remote sidecar may be called by other clients than this service's API.
  try {
    if (format === "jpeg") countJpegStructure(bytes);
    else checkPngChunks(bytes);
  } catch (error) {
    throw overLimit((error as Error).message, error);
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw invalidDocument(`the ${label} header could not be read`, error);
  }
  if (metadata.format !== format) throw invalidDocument(`the document is not a decodable ${label}`);
  if (metadata.width * metadata.height > limits.maxImagePixels) {
    throw overLimit(
      `the image declares ${metadata.width}x${metadata.height} pixels, more than the ${limits.maxImagePixels} pixel limit`,
    );
  }
  // EXIF orientations 5-8 turn the image a quarter, swapping its sides.
  const turned = (metadata.orientation ?? 1) >= 5;
  const sourceWidth = turned ? metadata.height : metadata.width;
  const sourceHeight = turned ? metadata.width : metadata.height;
  const scale = fitScale(sourceWidth, sourceHeight, limits);
  const width = Math.max(1, Math.round(sourceWidth * scale));
  const height = Math.max(1, Math.round(sourceHeight * scale));
  // Turning by EXIF orientation needs the whole decoded image at its stored size at once.
  const turnBytes = (metadata.orientation ?? 1) > 1 ? metadata.width * metadata.height * (metadata.channels ?? 3) : 0;
  await admit?.(width * height * BYTES_PER_PIXEL + turnBytes);

  let pixels: Buffer;
  try {
    let pipeline = sharp(bytes, { limitInputPixels: limits.maxImagePixels, failOn: "truncated", sequentialRead: true })
      .timeout({ seconds: Math.max(1, Math.ceil(limits.decodeBudgetMs / 1000)) })
      .rotate();
    // Transparent areas read as paper, which is what a printed document would show there.
    if (metadata.hasAlpha) pipeline = pipeline.flatten({ background: "#ffffff" });
    if (scale < 1) pipeline = pipeline.resize(width, height, { fit: "fill" });
    pixels = await pipeline.toColourspace("srgb").removeAlpha().raw({ depth: "uchar" }).toBuffer();
  } catch (error) {
    const timedOut = /timeout/i.test((error as Error).message);
    throw timedOut
      ? overLimit(`decoding the ${label} took longer than the ${limits.decodeBudgetMs} ms budget`, error)
      : invalidDocument(`the ${label} could not be decoded (truncated or corrupt)`, error);
  }
  if (pixels.length !== width * height * 3) throw invalidDocument(`the ${label} decoded to an unexpected pixel layout`);

  return {
    image: { data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height },
    dpi: (metadata.density ?? 0) * scale,
    sourceWidth,
    sourceHeight,
    scale,
    facts: {
      format,
      storedWidth: metadata.width,
      storedHeight: metadata.height,
      orientation: metadata.orientation ?? 0,
      channels: metadata.channels,
      hasAlpha: metadata.hasAlpha,
      colorSpace: metadata.space,
      chromaSubsampling: metadata.chromaSubsampling ?? "",
      progressive: metadata.isProgressive ?? false,
      hasExif: metadata.exif !== undefined,
      hasIccProfile: metadata.hasProfile ?? false,
      depth: metadata.depth,
    },
  };
}
