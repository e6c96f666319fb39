// What a PNG's header does not declare, bounded before any decoder sees it: compressed
// metadata chunks (iCCP profiles, zTXt and compressed iTXt text) inflate to whatever their
// writer chose, and a few kilobytes of zeros became hundreds of megabytes held by a service
// process. Each is inflated here under a ceiling (never past it), and the raw bytes and
// number of metadata chunks are counted. A cut-off file ends the walk quietly: truncation
// is the decoder's to find.

import { inflateSync } from "node:zlib";
import { AppError } from "../errors.ts";

const PNG_CHUNK_LIMITS = {
  /** An ICC profile, inflated: real ones are a few kilobytes to about 1 MB. */
  maxIccBytes: 4 * 1024 * 1024,
  /** All metadata chunks together, compressed ones counted inflated. */
  maxMetadataBytes: 8 * 1024 * 1024,
  /** Chunks other than the image data. */
  maxMetadataChunks: 1_000,
} as const;

const SIGNATURE_BYTES = 8;
const IMAGE_CHUNKS = new Set(["IHDR", "PLTE", "IDAT", "IEND"]);
const latin1 = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1");

/** Inflated size of a zlib stream, refusing it the moment it passes `ceiling`. */
function inflatedSize(data: Uint8Array, ceiling: number, what: string): number {
  try {
    return inflateSync(data, { maxOutputLength: ceiling }).length;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new AppError("FILE_TOO_LARGE", `the PNG's ${what} inflates to more than ${ceiling} bytes`);
    return data.length; // corrupt: the decoder judges it; it holds no more than its bytes
  }
}

/** The compressed part of a metadata chunk, or null when the chunk is stored uncompressed. */
function compressedPart(type: string, data: Uint8Array): Uint8Array | null {
  const nul = data.indexOf(0);
  if (nul < 0) return null;
  if (type === "iCCP" || type === "zTXt") return data.subarray(nul + 2);
  if (type === "iTXt" && data[nul + 1] === 1) {
    // keyword\0 flag method language\0 translated-keyword\0 text
    const language = data.indexOf(0, nul + 3);
    const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
    return translated < 0 ? null : data.subarray(translated + 1);
  }
  return null;
}

export function checkPngChunks(
  bytes: Uint8Array,
  limits = PNG_CHUNK_LIMITS,
): { metadataBytes: number; metadataChunks: number } {
  let metadataBytes = 0;
  let metadataChunks = 0;
  let p = SIGNATURE_BYTES;
  while (p + 8 <= bytes.length) {
    const length = ((bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!) >>> 0;
    const type = latin1(bytes, p + 4, p + 8);
    const end = Math.min(bytes.length, p + 8 + length);
    if (type === "IEND") break;
    if (!IMAGE_CHUNKS.has(type)) {
      if (++metadataChunks > limits.maxMetadataChunks)
        throw new AppError("FILE_TOO_LARGE", `the PNG has more than ${limits.maxMetadataChunks} metadata chunks`);
      const data = bytes.subarray(p + 8, end);
      const compressed = compressedPart(type, data);
      const ceiling = type === "iCCP" ? limits.maxIccBytes : limits.maxMetadataBytes - metadataBytes;
      const what = type === "iCCP" ? "ICC profile" : `${type} chunk`;
      metadataBytes += compressed ? inflatedSize(compressed, Math.max(1, ceiling), what) : data.length;
      if (metadataBytes > limits.maxMetadataBytes)
        throw new AppError("FILE_TOO_LARGE", `the PNG carries more than ${limits.maxMetadataBytes} bytes of metadata`);
    }
    p += 12 + length;
  }
  return { metadataBytes, metadataChunks };
}
