// Frontal faces on a page, by the Viola-Jones detector of jsfeat with OpenCV's frontal-face
// Haar cascade (sidecar/models/face-cascade.json, extracted from the same package by
// scripts/models/extract-face-cascade.ts). Identity documents print their portraits full
// face by rule (ICAO 9303 part 3 for passports and cards, the licence directive in the EU), so
// a frontal detector finds the portrait and the ghost image a template prints beside it. The
// page is searched at DETECT_WIDTH pixels wide: a card's ghost is then 40 pixels or more,
// and the search takes about 150 ms on one core.
import jsfeat from "jsfeat";
import cascade from "../models/face-cascade.json" with { type: "json" };
import type { Box } from "../forensics/types.ts";

export interface Face {
  /** The face's square in the search image's pixels. */
  box: Box;
  /** How many overlapping windows the cascade accepted there: how surely it is a face. */
  neighbours: number;
}

/** Width the page is searched at. */
const DETECT_WIDTH = 600;
/** Windows grow by this factor from one scale to the next. */
const SCALE_FACTOR = 1.15;
/** The smallest window, in units of the cascade's 20-pixel window: 40 pixels at DETECT_WIDTH. */
const MIN_SCALE = 2;

/** A page's luma as the detector searches it, `scale` times the page's size. */
export interface SearchImage {
  luma: Uint8Array;
  width: number;
  height: number;
  scale: number;
}

/** The page's luma, box-averaged down to DETECT_WIDTH (never up). */
export function searchImage(rgb: Uint8Array, width: number, height: number): SearchImage {
  const scale = Math.min(1, DETECT_WIDTH / width);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const luma = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const [ya, yb] = [Math.floor(y / scale), Math.max(Math.floor(y / scale) + 1, Math.floor((y + 1) / scale))];
    for (let x = 0; x < w; x++) {
      const [xa, xb] = [Math.floor(x / scale), Math.max(Math.floor(x / scale) + 1, Math.floor((x + 1) / scale))];
      let sum = 0;
      let n = 0;
      for (let sy = ya; sy < Math.min(yb, height); sy++) {
        for (let sx = xa; sx < Math.min(xb, width); sx++) {
          const i = (sy * width + sx) * 3;
          sum += 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
          n++;
        }
      }
      luma[y * w + x] = n > 0 ? Math.round(sum / n) : 0;
    }
  }
  return { luma, width: w, height: h, scale };
}

/** Frontal faces on the search image, in its pixels, grouped as OpenCV groups them. */
export function detectFaces(small: SearchImage): Face[] {
  const { width: w, height: h } = small;
  const image = new jsfeat.matrix_t(w, h, jsfeat.U8_t | jsfeat.C1_t);
  image.data.set(small.luma);
  // Equalised as the cascade's training faces were: a faded ghost reaches the contrast the
  // cascade's thresholds expect.
  jsfeat.imgproc.equalize_histogram(image, image);
  const sum = new Int32Array((w + 1) * (h + 1));
  // Squares overflow 32 bits past 33,000 pixels of white: kept in doubles.
  const squares = new Float64Array((w + 1) * (h + 1));
  const tilted = cascade.tilted ? new Int32Array((w + 1) * (h + 1)) : null;
  jsfeat.imgproc.compute_integral_image(image, sum, squares, tilted);
  const found = jsfeat.haar.detect_multi_scale(sum, squares, tilted, null, w, h, cascade, SCALE_FACTOR, MIN_SCALE);
  return jsfeat.haar.group_rectangles(found, 1).map((r) => ({
    box: [r.x, r.y, r.width, r.height] as Box,
    neighbours: r.neighbors,
  }));
}
