// Proves a JPEG or PNG decodes completely, within a pixel budget, before anything
// analyses it. Decoding all the data (not just the header) is what catches truncation.

import sharp from "sharp";
import type { Metadata } from "sharp";
import { AppError } from "../errors.ts";
import { countJpegStructure } from "./jpeg-structure.ts";
import { checkPngChunks } from "./png-chunks.ts";

/** Decoding budget: a 50 MP image is already larger than any phone photo of a document. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Time the intake decode may take: a 50 MP JPEG's eighth-size decode takes well under a second. */
const DECODE_SECONDS = 10;

// IEND chunk: length 0, type "IEND", CRC AE 42 60 82. libpng stops after the last IDAT,
// so sharp accepts a PNG cut anywhere inside its final 12 bytes; this catches that.
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The image's pixel count (width × height), once it has proved decodable. */
export async function assertDecodableImage(bytes: Uint8Array, format: "jpeg" | "png"): Promise<number> {
  const label = format === "jpeg" ? "JPEG" : "PNG";
  // What the header does not declare is bounded before libvips reads any of it.
  if (format === "jpeg") countJpegStructure(bytes);
  else checkPngChunks(bytes);
  let metadata: Metadata;
  try {
    // Header only, so no pixel limit here: the budget is checked below with a clear answer.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new AppError("UNSUPPORTED_FORMAT", `the ${label} header could not be read`, { cause: error });
  }
  if (metadata.format !== format) throw new AppError("UNSUPPORTED_FORMAT", `the document is not a decodable ${label}`);
  if (metadata.width * metadata.height > MAX_IMAGE_PIXELS) {
    throw new AppError("FILE_TOO_LARGE", `the image has more than ${MAX_IMAGE_PIXELS} pixels`);
  }
  if (format === "png" && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(PNG_IEND) === -1) {
    throw new AppError("UNSUPPORTED_FORMAT", "the PNG is truncated (no IEND chunk)");
  }
  try {
    // An eighth-size thumbnail still runs every byte of compressed data through the decoder
    // (libjpeg scales in the DCT, libpng reads each row), so truncation surfaces, at about a
    // fifth of the cost of a full-size decode; the thumbnail itself is dropped.
    // failOn 'truncated' rather than sharp's default 'warning': JPEGs with harmless warnings
    // (extraneous bytes before a marker, common from scanners) stay acceptable.
    await sharp(bytes, { failOn: "truncated", limitInputPixels: MAX_IMAGE_PIXELS })
      .timeout({ seconds: DECODE_SECONDS })
      .resize({ width: Math.ceil(metadata.width / 8) })
      .raw()
      .toBuffer();
  } catch (error) {
    if (/timeout/i.test((error as Error).message))
      throw new AppError("FILE_TOO_LARGE", `decoding the ${label} took longer than ${DECODE_SECONDS} s`, {
        cause: error,
      });
    throw new AppError("UNSUPPORTED_FORMAT", `the ${label} could not be decoded (truncated or corrupt)`, {
      cause: error,
    });
  }
  return metadata.width * metadata.height;
}
