// What a JPEG's header does not declare, bounded before any decoder sees it: the number of
// scans (a progressive decoder works through the whole coefficient buffer once per scan, and
// hundreds of scans held a service process at gigabytes) and the bytes of metadata segments
// (APPn and COM: ICC profiles, EXIF, XMP, Photoshop blocks) it carries. A linear walk of the
// markers by the project's one JPEG structure reader (src/jpeg/markers.ts), lenient as the
// decoder is: entropy-coded data and bytes between segments are stepped over, and a cut-off
// file ends the walk quietly: truncation is the decoder's to find.

import { AppError } from "../errors.ts";
import { walkJpegSegments } from "../jpeg/markers.ts";

const JPEG_STRUCTURE_LIMITS = {
  /**
   * libjpeg's own progressive scripts use 10 scans (6 for greyscale), optimising encoders a few
   * dozen.
   */
  maxScans: 64,
  /** All APPn and COM segments together. */
  maxMetadataBytes: 4 * 1024 * 1024,
} as const;

interface JpegStructureCounts {
  scans: number;
  metadataBytes: number;
}

const SOS = 0xda;
const COM = 0xfe;
const isApp = (marker: number) => marker >= 0xe0 && marker <= 0xef;

export function countJpegStructure(bytes: Uint8Array, limits = JPEG_STRUCTURE_LIMITS): JpegStructureCounts {
  const counts: JpegStructureCounts = { scans: 0, metadataBytes: 0 };
  for (const { marker, length } of walkJpegSegments(bytes, { lenient: true })) {
    if (isApp(marker) || marker === COM) {
      counts.metadataBytes += length;
      if (counts.metadataBytes > limits.maxMetadataBytes) {
        throw new AppError(
          "FILE_TOO_LARGE",
          `the JPEG carries more than ${limits.maxMetadataBytes} bytes of metadata (APPn and COM segments)`,
        );
      }
    }
    if (marker === SOS && ++counts.scans > limits.maxScans) {
      throw new AppError("FILE_TOO_LARGE", `the JPEG has more than ${limits.maxScans} scans`);
    }
  }
  return counts;
}
