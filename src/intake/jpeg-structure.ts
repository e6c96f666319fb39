// What a JPEG's header does not declare, bounded before any decoder sees it: the number of
// scans (a progressive decoder works through the whole coefficient buffer once per scan, and
// hundreds of scans held a service process at gigabytes) and the bytes of metadata segments
// (APPn and COM: ICC profiles, EXIF, XMP, Photoshop blocks) it carries. A linear walk of the
// markers; entropy-coded data is skipped byte by byte. A cut-off file ends the walk quietly:
// truncation is the decoder's to find.

import { AppError } from "../errors.ts";

const JPEG_STRUCTURE_LIMITS = {
  /** libjpeg's own progressive scripts use 10 scans (6 for greyscale), optimising encoders a few dozen. */
  maxScans: 64,
  /** All APPn and COM segments together. */
  maxMetadataBytes: 4 * 1024 * 1024,
} as const;

interface JpegStructureCounts {
  scans: number;
  metadataBytes: number;
}

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;
const isApp = (marker: number) => marker >= 0xe0 && marker <= 0xef;
/** Markers without a length: TEM, RSTn, SOI, EOI. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

export function countJpegStructure(bytes: Uint8Array, limits = JPEG_STRUCTURE_LIMITS): JpegStructureCounts {
  const counts: JpegStructureCounts = { scans: 0, metadataBytes: 0 };
  let p = 2;
  while (p + 1 < bytes.length) {
    if (bytes[p] !== 0xff) {
      p++;
      continue;
    }
    const marker = bytes[p + 1]!;
    if (marker === 0xff) {
      p++; // fill byte
      continue;
    }
    if (marker === EOI) break;
    if (standalone(marker) || marker === 0x00) {
      p += 2;
      continue;
    }
    if (p + 3 >= bytes.length) break;
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    if (isApp(marker) || marker === COM) {
      counts.metadataBytes += length;
      if (counts.metadataBytes > limits.maxMetadataBytes) {
        throw new AppError(
          "FILE_TOO_LARGE",
          `the JPEG carries more than ${limits.maxMetadataBytes} bytes of metadata (APPn and COM segments)`,
        );
      }
    }
    p += 2 + length;
    if (marker === SOS) {
      if (++counts.scans > limits.maxScans)
        throw new AppError("FILE_TOO_LARGE", `the JPEG has more than ${limits.maxScans} scans`);
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
      while (
        p + 1 < bytes.length &&
        !(bytes[p] === 0xff && bytes[p + 1] !== 0x00 && !(bytes[p + 1]! >= 0xd0 && bytes[p + 1]! <= 0xd7))
      )
        p++;
    }
  }
  return counts;
}
