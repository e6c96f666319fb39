// Cuts a text box out of the page straight at recognition height. Boxes are rotated
// rectangles (and after scaling, general quadrilaterals), which sharp cannot cut: it only
// rotates whole images and extracts axis-aligned regions. So the crop is a hand-written
// perspective warp with bilinear sampling, done once at the final size (PaddleOCR warps to
// the box size and then resizes again). When the box is much larger than the output, k x k
// samples per output pixel are averaged so that thin strokes do not alias away.
import type { RgbImage } from "../image/rgb.ts";
import type { Point, Quad } from "./geometry.ts";

const MAX_SUPERSAMPLE = 4;

const dist = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Reading-direction size of a box; tall boxes are read rotated, as PaddleOCR does (np.rot90). */
export function orientQuad(quad: Quad): { quad: Quad; width: number; height: number } {
  const [tl, tr, br, bl] = quad;
  const width = Math.max(dist(tl, tr), dist(bl, br));
  const height = Math.max(dist(tl, bl), dist(tr, br));
  if (height / Math.max(width, 1e-6) >= 1.5) return { quad: [tr, br, bl, tl], width: height, height: width };
  return { quad, width, height };
}

/** Width of the recognition crop for a box: aspect kept at `height`, capped at `maxWidth`. */
export function cropWidth(quad: Quad, height: number, maxWidth: number): number {
  const box = orientQuad(quad);
  return Math.max(1, Math.min(maxWidth, Math.round((height * box.width) / Math.max(box.height, 1))));
}

export function cropQuad(image: RgbImage, quad: Quad, height: number, maxWidth: number): RgbImage {
  const box = orientQuad(quad);
  const width = cropWidth(quad, height, maxWidth);
  const h = squareToQuad(box.quad);
  const k = Math.min(MAX_SUPERSAMPLE, Math.max(1, Math.ceil(Math.max(box.width / width, box.height / height))));
  const out = new Uint8Array(width * height * 3);
  const acc = [0, 0, 0];
  const px = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      acc[0] = acc[1] = acc[2] = 0;
      for (let sy = 0; sy < k; sy++) {
        const v = (y + (sy + 0.5) / k) / height;
        for (let sx = 0; sx < k; sx++) {
          const u = (x + (sx + 0.5) / k) / width;
          const w = h[6] * u + h[7] * v + 1;
          sampleBilinear(image, (h[0] * u + h[1] * v + h[2]) / w, (h[3] * u + h[4] * v + h[5]) / w, px);
          acc[0] += px[0]!;
          acc[1] += px[1]!;
          acc[2] += px[2]!;
        }
      }
      const o = (y * width + x) * 3;
      const n = k * k;
      out[o] = acc[0]! / n + 0.5;
      out[o + 1] = acc[1]! / n + 0.5;
      out[o + 2] = acc[2]! / n + 0.5;
    }
  }
  return { data: out, width, height };
}

/** Reads the pixel value at a fractional position; outside the page counts as the nearest edge. */
function sampleBilinear(image: RgbImage, x: number, y: number, out: number[]): void {
  const { data, width, height } = image;
  const cx = Math.min(width - 1, Math.max(0, x - 0.5));
  const cy = Math.min(height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const a = (y0 * width + x0) * 3;
  const b = (y0 * width + x1) * 3;
  const c = (y1 * width + x0) * 3;
  const d = (y1 * width + x1) * 3;
  for (let ch = 0; ch < 3; ch++) {
    const top = data[a + ch]! + (data[b + ch]! - data[a + ch]!) * fx;
    const bottom = data[c + ch]! + (data[d + ch]! - data[c + ch]!) * fx;
    out[ch] = top + (bottom - top) * fy;
  }
}

/**
 * Homography taking the unit square (0,0),(1,0),(1,1),(0,1) to the quad's corners
 * (Heckbert, "Fundamentals of Texture Mapping", 1989). Returns [a,b,c,d,e,f,g,h] with
 * x = (a u + b v + c) / (g u + h v + 1), y = (d u + e v + f) / (g u + h v + 1).
 */
function squareToQuad(quad: Quad): [number, number, number, number, number, number, number, number] {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) return [x1 - x0, x3 - x0, x0, y1 - y0, y3 - y0, y0, 0, 0];
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const den = dx1 * dy2 - dx2 * dy1 || 1e-9;
  const g = (sx * dy2 - dx2 * sy) / den;
  const h = (dx1 * sy - sx * dy1) / den;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h];
}
