// The ghost image: many identity documents print the holder's portrait a second time,
// smaller and faded (ICAO 9303's secondary image). It is the same photograph, so the two
// faces must agree: a swap that replaces the portrait and leaves the ghost (or the reverse)
// puts two people on one card. Both are found as frontal faces (face-detect.ts): the portrait
// is the face the detector is surest of, the ghost another sure face of a fraction of its
// area that does not overlap it. The two are compared on the detector's own downscaled page
// (about 600 pixels wide, so a large portrait is averaged, not aliased) as 32×32 samples of their
// squares, each through its own histogram equalisation (so that a ghost printed faded, in one
// tone or through another tone curve compares by rank, as the photograph it was printed from)
// and correlated, at the ghost's best
// alignment within a few percent of the detector's square, which is placed only that surely.
import type { Box } from "../forensics/types.ts";
import { detectFaces, type Face, type SearchImage, searchImage } from "./face-detect.ts";
import { GHOST_THRESHOLDS } from "./thresholds.ts";

export interface GhostMeasure {
  /** The portrait's face, where one was found surely enough. */
  face: Box | null;
  /** The ghost image's face, where one was found beside it. */
  ghost: Box | null;
  /** Rank correlation of the two faces, -1..1, or null where there is no pair to compare. */
  similarity: number | null;
}

/** A ghost is this share of the portrait face's area, or between. */
const MIN_AREA_SHARE = 0.08;
const MAX_AREA_SHARE = 0.7;
/** Side of the compared samples. */
const SAMPLE = 32;
/** The ghost's square is moved and resized by up to this share of its side... */
const ALIGN_RANGE = 0.15;
/** ...in steps of this share. */
const ALIGN_STEP = 0.025;

const overlaps = (a: Box, b: Box) =>
  a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

/** The portrait face and its ghost: both sure faces, the ghost a fraction of the portrait's size and apart from it. */
function pair(faces: readonly Face[]): { face: Face | null; ghost: Face | null } {
  const sure = faces
    .filter((f) => f.neighbours >= GHOST_THRESHOLDS.minNeighbours)
    .sort((a, b) => b.neighbours - a.neighbours || b.box[2] - a.box[2]);
  const face = sure[0] ?? null;
  if (!face) return { face: null, ghost: null };
  const ghost =
    sure.slice(1).find((g) => {
      const share = (g.box[2] * g.box[3]) / (face.box[2] * face.box[3]);
      return share >= MIN_AREA_SHARE && share <= MAX_AREA_SHARE && !overlaps(g.box, face.box);
    }) ?? null;
  return { face, ghost };
}

/**
 * The look-up table that equalises the square (x, y, side)'s histogram: each grey level to the
 * share of the square's pixels at or below it. Samples mapped through it compare by rank, as
 * Spearman's correlation does, without sorting every sample.
 */
function equaliser(image: SearchImage, x: number, y: number, side: number): Float64Array {
  const { luma, width, height } = image;
  const histogram = new Float64Array(256);
  for (let py = Math.max(0, Math.floor(y)); py < Math.min(height, Math.ceil(y + side)); py++)
    for (let px = Math.max(0, Math.floor(x)); px < Math.min(width, Math.ceil(x + side)); px++)
      histogram[luma[py * width + px]!]!++;
  let total = 0;
  for (let v = 0; v < 256; v++) {
    total += histogram[v]!;
    histogram[v] = total;
  }
  return histogram.map((c) => c / (total || 1));
}

/** A SAMPLE×SAMPLE bilinear sample of the square (x, y, side) through `lut`, normalised to zero mean and unit variance. */
function sample(image: SearchImage, lut: Float64Array, x: number, y: number, side: number): Float64Array {
  const { luma, width, height } = image;
  const values = new Float64Array(SAMPLE * SAMPLE);
  let mean = 0;
  for (let j = 0; j < SAMPLE; j++) {
    for (let i = 0; i < SAMPLE; i++) {
      const px = x + ((i + 0.5) * side) / SAMPLE - 0.5;
      const py = y + ((j + 0.5) * side) / SAMPLE - 0.5;
      const x0 = Math.max(0, Math.min(width - 2, Math.floor(px)));
      const y0 = Math.max(0, Math.min(height - 2, Math.floor(py)));
      const fx = Math.min(1, Math.max(0, px - x0));
      const fy = Math.min(1, Math.max(0, py - y0));
      const at = (dx: number, dy: number) => lut[luma[(y0 + dy) * width + x0 + dx]!]!;
      const v =
        at(0, 0) * (1 - fx) * (1 - fy) + at(1, 0) * fx * (1 - fy) + at(0, 1) * (1 - fx) * fy + at(1, 1) * fx * fy;
      values[j * SAMPLE + i] = v;
      mean += v;
    }
  }
  mean /= values.length;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2;
  const sd = Math.sqrt(variance / values.length) || 1;
  return values.map((v) => (v - mean) / sd);
}

const correlation = (a: Float64Array, b: Float64Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0) / a.length;

const toPage = (box: Box, scale: number): Box => box.map((v) => Math.round(v / scale)) as Box;

export function measureGhost(rgb: Uint8Array, width: number, height: number): GhostMeasure {
  const image = searchImage(rgb, width, height);
  const { face, ghost } = pair(detectFaces(image));
  const faceBox = face ? toPage(face.box, image.scale) : null;
  if (!face || !ghost) return { face: faceBox, ghost: null, similarity: null };
  const [fx, fy, fside] = face.box;
  const portrait = sample(image, equaliser(image, fx, fy, fside), fx, fy, fside);
  const [gx, gy, side] = ghost.box;
  // One table for every alignment tried: the ghost's square with the margin they may reach.
  const margin = side * ALIGN_RANGE * 1.5;
  const ghostLut = equaliser(image, gx - margin, gy - margin, side + 2 * margin);
  const compare = (ds: number, dx: number, dy: number) => {
    const s = side * (1 + ds);
    return correlation(
      portrait,
      sample(image, ghostLut, gx + dx * side + (side - s) / 2, gy + dy * side + (side - s) / 2, s),
    );
  };
  // Coarse to fine: every second step over the whole range, then the steps around the best.
  let best = { similarity: -1, ds: 0, dx: 0, dy: 0 };
  const coarse = Math.round(ALIGN_RANGE / (2 * ALIGN_STEP));
  for (let i = -coarse; i <= coarse; i++)
    for (let j = -coarse; j <= coarse; j++)
      for (let k = -coarse; k <= coarse; k++) {
        const [ds, dx, dy] = [i, j, k].map((n) => n * 2 * ALIGN_STEP) as [number, number, number];
        const similarity = compare(ds, dx, dy);
        if (similarity > best.similarity) best = { similarity, ds, dx, dy };
      }
  let similarity = best.similarity;
  for (const i of [-1, 0, 1])
    for (const j of [-1, 0, 1])
      for (const k of [-1, 0, 1])
        similarity = Math.max(
          similarity,
          compare(best.ds + i * ALIGN_STEP, best.dx + j * ALIGN_STEP, best.dy + k * ALIGN_STEP),
        );
  return { face: faceBox, ghost: toPage(ghost.box, image.scale), similarity };
}
