// Reads the luma quantisation table of a baseline/progressive JPEG and estimates the
// IJG quality it corresponds to. Hand-written because sharp/libvips and exifr do not expose
// quantisation tables; only the marker segments before the first scan are read, with
// every length checked against the buffer.

/** JPEG zigzag order: ZIGZAG[i] is the natural (row-major) index of the i-th stored coefficient. */
export const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50,
  43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** The IJG (libjpeg) standard luminance table at quality 50, natural order. */
const IJG_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68,
  109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

export interface JpegTables {
  /** Luma quantisation steps in natural order (index v * 8 + u). */
  luma: number[];
  /** IJG quality (1..100) whose luma table is closest. */
  quality: number;
}

/** Null when the bytes are not a JPEG or hold no usable table. */
export function readJpegTables(bytes: Uint8Array): JpegTables | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const tables = new Map<number, number[]>();
  let lumaTableId = 0;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const start = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    if (marker === 0xdb) readDqt(bytes.subarray(start, end), tables);
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC): the first component is luma.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && end - start >= 9) lumaTableId = bytes[start + 8]!;
    if (marker === 0xda) break;
    at = end;
  }
  const luma = tables.get(lumaTableId);
  return luma ? { luma, quality: estimateQuality(luma) } : null;
}

function readDqt(segment: Uint8Array, tables: Map<number, number[]>): void {
  let at = 0;
  while (at < segment.length) {
    const precision = segment[at]! >> 4;
    const id = segment[at]! & 0x0f;
    const size = precision === 0 ? 64 : 128;
    if (at + 1 + size > segment.length) return;
    const table = new Array<number>(64);
    for (let i = 0; i < 64; i++) {
      const value = precision === 0 ? segment[at + 1 + i]! : (segment[at + 1 + 2 * i]! << 8) | segment[at + 2 + 2 * i]!;
      table[ZIGZAG[i]!] = value;
    }
    tables.set(id, table);
    at += 1 + size;
  }
}

export function ijgLumaTable(quality: number): number[] {
  // Integer division, as libjpeg's jpeg_quality_scaling does.
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - 2 * quality;
  return IJG_LUMA.map((t) => Math.min(255, Math.max(1, Math.floor((t * scale + 50) / 100))));
}

function estimateQuality(luma: number[]): number {
  let best = 50;
  let bestError = Number.POSITIVE_INFINITY;
  for (let q = 1; q <= 100; q++) {
    const table = ijgLumaTable(q);
    let error = 0;
    for (let i = 0; i < 64; i++) error += Math.abs(table[i]! - luma[i]!);
    if (error < bestError) {
      bestError = error;
      best = q;
    }
  }
  return best;
}
