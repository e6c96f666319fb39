// RGB pixels into the planar float layout PP-OCR models take. PaddleOCR reads images with
// OpenCV, i.e. in BGR order, and normalises channel 0 (blue) with mean[0]; the exported
// models were trained that way, so the tensor is written B, G, R with means in that order.

export interface Normalisation {
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

/**
 * Writes `width x height` RGB pixels as BGR planes of a `[3, height, stride]` tensor slice
 * starting at `offset`; columns from `width` to `stride` are left as they are (padding).
 */
export function writeBgrPlanes(
  rgb: Uint8Array,
  width: number,
  height: number,
  norm: Normalisation,
  out: Float32Array,
  offset = 0,
  stride = width,
): void {
  const plane = height * stride;
  const scale = norm.std.map((s) => 1 / (255 * s));
  const shift = norm.mean.map((m, c) => m / norm.std[c]!);
  const [sB, sG, sR] = scale as [number, number, number];
  const [mB, mG, mR] = shift as [number, number, number];
  for (let y = 0; y < height; y++) {
    let src = y * width * 3;
    let dst = offset + y * stride;
    for (let x = 0; x < width; x++, src += 3, dst++) {
      out[dst] = rgb[src + 2]! * sB - mB;
      out[dst + plane] = rgb[src + 1]! * sG - mG;
      out[dst + 2 * plane] = rgb[src]! * sR - mR;
    }
  }
}
