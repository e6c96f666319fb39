// Plane geometry for text boxes: convex hull, minimum-area rotated rectangle (what OpenCV's
// minAreaRect gives PaddleOCR), corner ordering and DB "unclip". Hand-written because the
// only JS port of these routines is opencv.js, a 10 MB single-threaded WASM build whose
// matrices must be freed by hand, for about a hundred lines of arithmetic.

export type Point = [number, number];

/** Corners clockwise from top-left: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

export interface RotatedRect {
  cx: number;
  cy: number;
  /** Side along `angle`. */
  width: number;
  height: number;
  /** Radians; direction of the `width` side. */
  angle: number;
}

const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/**
 * Andrew's monotone chain; returns the hull counter-clockwise without repeating the first point.
 */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** Smallest-area enclosing rectangle: one of its sides lies on a hull edge (rotating calipers). */
export function minAreaRect(points: Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, width: 0, height: 0, angle: 0 };
  if (hull.length === 1) return { cx: hull[0]![0], cy: hull[0]![1], width: 0, height: 0, angle: 0 };
  let best: RotatedRect | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy;
      const v = -p[0] * uy + p[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = {
        cx: cu * ux - cv * uy,
        cy: cu * uy + cv * ux,
        width: maxU - minU,
        height: maxV - minV,
        angle: Math.atan2(uy, ux),
      };
    }
  }
  return best ?? { cx: hull[0]![0], cy: hull[0]![1], width: 0, height: 0, angle: 0 };
}

export function rectCorners(rect: RotatedRect): Point[] {
  const ux = Math.cos(rect.angle);
  const uy = Math.sin(rect.angle);
  const hw = rect.width / 2;
  const hh = rect.height / 2;
  return [
    [rect.cx - ux * hw + uy * hh, rect.cy - uy * hw - ux * hh],
    [rect.cx + ux * hw + uy * hh, rect.cy + uy * hw - ux * hh],
    [rect.cx + ux * hw - uy * hh, rect.cy + uy * hw + ux * hh],
    [rect.cx - ux * hw - uy * hh, rect.cy - uy * hw + ux * hh],
  ];
}

/** PaddleOCR's get_mini_boxes ordering: of the two leftmost corners the upper is top-left, etc. */
export function orderQuad(corners: Point[]): Quad {
  const byX = [...corners].sort((a, b) => a[0] - b[0]);
  const [l1, l2, r1, r2] = byX as [Point, Point, Point, Point];
  const [tl, bl] = l1[1] <= l2[1] ? [l1, l2] : [l2, l1];
  const [tr, br] = r1[1] <= r2[1] ? [r1, r2] : [r2, r1];
  return [tl, tr, br, bl];
}

/**
 * DB's unclip: the shrunk text kernel is grown back by d = area * ratio / perimeter.
 * PaddleOCR offsets the rectangle with pyclipper (round joins) and then takes the
 * minimum-area rectangle of the result; for a rectangle that is exactly the rectangle
 * grown by d on every side, so no polygon-offsetting library is needed.
 */
export function unclipRect(rect: RotatedRect, ratio: number): RotatedRect {
  const perimeter = 2 * (rect.width + rect.height);
  if (perimeter === 0) return rect;
  const d = (rect.width * rect.height * ratio) / perimeter;
  return { ...rect, width: rect.width + 2 * d, height: rect.height + 2 * d };
}
