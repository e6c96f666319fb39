// What a filled path actually paints, as far as white-out is concerned. A path's bounds are
// not its area: a table border drawn as one path of an outer and an inner rectangle (a
// frame) has the bounds of the whole cell and paints only its edges, and a page that draws
// its cell borders after the text would otherwise read as text covered over (measured: an
// Azure invoice sample, 19 such "covers"). So each closed subpath is taken on its own, and a
// path whose subpaths nest paints a ring, which hides nothing inside it.
import type { mupdf } from "../../pdf/mupdf.ts";
import type { Rect } from "./rect.ts";

/** Subpaths read per path: a hostile path cannot make this unbounded. */
const MAX_SUBPATHS = 64;

const contains = (outer: Rect, inner: Rect): boolean =>
  outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/**
 * The rectangles a fill can hide text under: the bounds of each subpath, in device space.
 * Empty when the subpaths nest (a frame or ring) or are too many to read (a drawing, not a
 * cover).
 */
export function solidParts(path: mupdf.Path, ctm: mupdf.Matrix): Rect[] {
  const parts: Rect[] = [];
  let current: Rect | null = null;
  let tooMany = false;
  const add = (x: number, y: number) => {
    const px = ctm[0] * x + ctm[2] * y + ctm[4];
    const py = ctm[1] * x + ctm[3] * y + ctm[5];
    if (!current) current = [px, py, px, py];
    else
      current = [
        Math.min(current[0], px),
        Math.min(current[1], py),
        Math.max(current[2], px),
        Math.max(current[3], py),
      ];
  };
  const close = () => {
    if (current) {
      if (parts.length < MAX_SUBPATHS) parts.push(current);
      else tooMany = true;
    }
    current = null;
  };
  path.walk({
    moveTo(x, y) {
      close();
      add(x, y);
    },
    lineTo: add,
    curveTo(x1, y1, x2, y2, x3, y3) {
      add(x1, y1);
      add(x2, y2);
      add(x3, y3);
    },
    closePath: close,
  });
  close();
  if (tooMany) return [];
  for (const a of parts) for (const b of parts) if (a !== b && contains(a, b)) return [];
  return parts;
}

/** The part of `rect` inside `clip`; null when nothing of it is. */
export function clipRect(rect: Rect, clip: Rect | null): Rect | null {
  if (!clip) return rect;
  const r: Rect = [
    Math.max(rect[0], clip[0]),
    Math.max(rect[1], clip[1]),
    Math.min(rect[2], clip[2]),
    Math.min(rect[3], clip[3]),
  ];
  return r[2] > r[0] && r[3] > r[1] ? r : null;
}
