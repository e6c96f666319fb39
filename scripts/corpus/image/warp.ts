// Perspective warp of raw RGB pixels. sharp offers only affine transforms; a phone photo of
// a card is a projective one, and knowing the exact mapping is what lets the labels carry
// forgery boxes in the photo's own pixel coordinates.
import type { Box } from "../render/svg.ts";

export type Point = [number, number];
/** 3x3 homography, row-major, h[8] = 1. */
export type Homography = number[];

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** The homography taking each `from` corner to the matching `to` corner. */
export function homography(from: Point[], to: Point[]): Homography {
  const a: number[][] = [];
  const b: number[] = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i] as Point;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  });
  return [...solve(a, b), 1];
}

function apply(h: Homography, [x, y]: Point): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

export function mapBox(h: Homography, b: Box): Box {
  const pts = [
    apply(h, [b.x, b.y]),
    apply(h, [b.x + b.w, b.y]),
    apply(h, [b.x + b.w, b.y + b.h]),
    apply(h, [b.x, b.y + b.h]),
  ];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.floor(Math.min(...xs));
  const y = Math.floor(Math.min(...ys));
  return { x, y, w: Math.ceil(Math.max(...xs)) - x, h: Math.ceil(Math.max(...ys)) - y };
}

/**
 * Draws `src` (RGB, srcW x srcH) into `dst` (RGB, dstW x dstH) so that corners `from` land on `to`,
 * with bilinear sampling; pixels outside the source keep what `dst` holds (the background).
 */
export function warpInto(
  src: Uint8Array,
  srcW: number,
  srcH: number,
  dst: Uint8Array,
  dstW: number,
  dstH: number,
  from: Point[],
  to: Point[],
): void {
  const inv = homography(to, from);
  for (let v = 0; v < dstH; v++) {
    for (let u = 0; u < dstW; u++) {
      const w = inv[6]! * u + inv[7]! * v + inv[8]!;
      const x = (inv[0]! * u + inv[1]! * v + inv[2]!) / w;
      const y = (inv[3]! * u + inv[4]! * v + inv[5]!) / w;
      if (x < 0 || y < 0 || x > srcW - 1 || y > srcH - 1) continue;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const x1 = Math.min(x0 + 1, srcW - 1);
      const y1 = Math.min(y0 + 1, srcH - 1);
      const fx = x - x0;
      const fy = y - y0;
      const o = (v * dstW + u) * 3;
      for (let c = 0; c < 3; c++) {
        const a = src[(y0 * srcW + x0) * 3 + c]!;
        const b = src[(y0 * srcW + x1) * 3 + c]!;
        const cc = src[(y1 * srcW + x0) * 3 + c]!;
        const d = src[(y1 * srcW + x1) * 3 + c]!;
        dst[o + c] = (a * (1 - fx) + b * fx) * (1 - fy) + (cc * (1 - fx) + d * fx) * fy;
      }
    }
  }
}
