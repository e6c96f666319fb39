// The page at the localiser's working size, exactly as scripts/models/localiser/working_size.py
// makes it for training: reduced by the smallest whole factor that brings the long side within
// MAX_SIDE (factor x factor block means, rounded half up), then padded with black to multiples
// of PAD_MULTIPLE. A whole factor keeps this reduction identical in both languages, so the
// network sees in service the pixels it was trained on.
export const MAX_SIDE = 1600;
const PAD_MULTIPLE = 32;

export interface WorkingImage {
  /** Padded RGB bytes, `paddedHeight x paddedWidth x 3`. */
  rgb: Uint8Array;
  paddedWidth: number;
  paddedHeight: number;
  /** The page's own pixels inside the padding. */
  width: number;
  height: number;
  /** Page pixels per working pixel. */
  factor: number;
}

export const reductionFactor = (width: number, height: number): number =>
  Math.max(1, Math.ceil(Math.max(width, height) / MAX_SIDE));

export function workingImage(rgb: Uint8Array, width: number, height: number): WorkingImage {
  const factor = reductionFactor(width, height);
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const paddedWidth = Math.ceil(w / PAD_MULTIPLE) * PAD_MULTIPLE;
  const paddedHeight = Math.ceil(h / PAD_MULTIPLE) * PAD_MULTIPLE;
  const out = new Uint8Array(paddedWidth * paddedHeight * 3);
  if (factor === 1) {
    for (let y = 0; y < h; y++) out.set(rgb.subarray(y * width * 3, (y * width + w) * 3), y * paddedWidth * 3);
    return { rgb: out, paddedWidth, paddedHeight, width: w, height: h, factor };
  }
  const area = factor * factor;
  const sums = new Uint32Array(w * 3);
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      let src = (y * factor + dy) * width * 3;
      for (let x = 0; x < w; x++) {
        const cell = x * 3;
        for (let dx = 0; dx < factor; dx++, src += 3) {
          sums[cell] = sums[cell]! + rgb[src]!;
          sums[cell + 1] = sums[cell + 1]! + rgb[src + 1]!;
          sums[cell + 2] = sums[cell + 2]! + rgb[src + 2]!;
        }
      }
    }
    const row = y * paddedWidth * 3;
    for (let i = 0; i < w * 3; i++) out[row + i] = Math.floor((sums[i]! * 2 + area) / (2 * area));
  }
  return { rgb: out, paddedWidth, paddedHeight, width: w, height: h, factor };
}
