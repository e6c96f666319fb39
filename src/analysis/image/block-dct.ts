// 8x8 type-II DCT exactly as JPEG defines it (ITU-T T.81 A.3.3), computed separably.
// Hand-written because no image library returns DCT coefficients of decoded pixels.

const COS = new Float64Array(64);
for (let x = 0; x < 8; x++) {
  for (let u = 0; u < 8; u++) {
    const c = u === 0 ? Math.SQRT1_2 : 1;
    COS[u * 8 + x] = (c / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  }
}

/**
 * DCT of the 8x8 block whose top-left sample is (bx*8, by*8) in a single-channel plane,
 * level-shifted by 128. Writes 64 coefficients in natural order into `out`.
 */
export const blockDct = (
  plane: Float32Array,
  width: number,
  bx: number,
  by: number,
  tmp: Float64Array,
  out: Float64Array,
): void => {
  const x0 = bx * 8;
  const y0 = by * 8;
  for (let y = 0; y < 8; y++) {
    const row = (y0 + y) * width + x0;
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += COS[u * 8 + x]! * (plane[row + x]! - 128);
      tmp[y * 8 + u] = s;
    }
  }
  for (let u = 0; u < 8; u++) {
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += COS[v * 8 + y]! * tmp[y * 8 + u]!;
      out[v * 8 + u] = s;
    }
  }
};
