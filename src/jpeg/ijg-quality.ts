// The IJG (libjpeg) quality scale: the Annex K example tables scaled by a quality
// factor. Most cameras, phones, libraries and messaging apps write these tables, so the
// quality a file was last saved at can be read back from its tables.

/** ITU-T T.81 Annex K, table K.1 (luminance), natural order. */
const ANNEX_K_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
];

/** ITU-T T.81 Annex K, table K.2 (chrominance), natural order. */
const ANNEX_K_CHROMA = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99,
];

/** The table libjpeg's jpeg_set_quality(q, force_baseline=TRUE) writes. */
export const ijgTable = (quality: number, chroma = false): Uint16Array => {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? Math.floor(5000 / q) : 200 - 2 * q;
  const base = chroma ? ANNEX_K_CHROMA : ANNEX_K_LUMA;
  return Uint16Array.from(base, (b) => Math.min(255, Math.max(1, Math.floor((b * scale + 50) / 100))));
};

export interface QualityEstimate {
  /** The IJG quality whose table is closest to the one measured. */
  quality: number;
  /** True when the table is exactly an IJG table (an encoder using libjpeg's scale). */
  exact: boolean;
  /** Mean absolute difference per entry to the closest IJG table. */
  meanAbsDiff: number;
}

export const estimateIjgQuality = (table: Uint16Array, chroma = false): QualityEstimate => {
  let best: QualityEstimate = { quality: 1, exact: false, meanAbsDiff: Number.POSITIVE_INFINITY };
  for (let q = 1; q <= 100; q++) {
    const ref = ijgTable(q, chroma);
    let diff = 0;
    for (let i = 0; i < 64; i++) diff += Math.abs(ref[i]! - table[i]!);
    const mean = diff / 64;
    if (mean < best.meanAbsDiff) best = { quality: q, exact: diff === 0, meanAbsDiff: mean };
  }
  return best;
};

export const tableSum = (table: Uint16Array): number => table.reduce((a, b) => a + b, 0);
