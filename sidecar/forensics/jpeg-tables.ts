// What the forensics take from a JPEG's header: the luma quantisation table and the IJG
// quality it corresponds to (the quality error-level analysis re-encodes at, and the table
// double quantisation is judged against). Read by the project's one header reader
// (src/jpeg/markers.ts), which the API's detectors use too.
import { estimateIjgQuality } from "../../src/jpeg/ijg-quality.ts";
import { JpegStructureError, lumaTable, parseJpegStructure } from "../../src/jpeg/markers.ts";

export interface JpegTables {
  /** Luma quantisation steps in natural order (index v * 8 + u). */
  luma: number[];
  /** IJG quality (1..100) whose luma table is closest. */
  quality: number;
}

/**
 * Null when the bytes are not a JPEG whose header reads cleanly up to its first scan, or hold no
 * luma table.
 */
export function readJpegTables(bytes: Uint8Array): JpegTables | null {
  let luma: Uint16Array | undefined;
  try {
    luma = lumaTable(parseJpegStructure(bytes));
  } catch (error) {
    if (error instanceof JpegStructureError) return null;
    throw error;
  }
  return luma ? { luma: Array.from(luma), quality: estimateIjgQuality(luma).quality } : null;
}
