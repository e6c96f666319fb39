// Recapture cue: a page photographed off a screen (its pixel grid, moire) or off a print
// (halftone dots) carries a periodic pattern that no camera, scanner or JPEG encoder puts on
// the original card. In the 2-D power spectrum of a patch it shows as isolated peaks well
// above the spectrum's level at the same radius; a photo of the card itself has a smooth
// spectrum. Where the peaks sit matters: text lines and ruled tables repeat along the axes,
// the JPEG grid repeats at multiples of 1/8 cycle per pixel, and content lives at low
// frequencies, so those bins are left out. Measured per patch on luma and on the red-blue
// difference (a screen's sub-pixels fringe in colour), the page's value is the median over
// its patches: a moire covers the whole capture, a periodic guilloche a part of the card.
import { upperMedian } from "../../src/numeric.ts";
import { powerSpectrum } from "./fft.ts";

/**
 * Patch side: 128 pixels resolve a period to 1/128 cycle per pixel, and 18 transforms of this
 * side (luma and colour, 9 patches) cost a few tens of milliseconds in TypeScript.
 */
const PATCH = 128;
/** Patches across and down on a grid over the page (at most 3 x 3 = 9 transforms). */
const GRID = 3;
/** Frequencies below this share of the patch side (cycles per patch) are content, not pattern. */
const LOW_BAND = 1 / 16;
/**
 * Bins this close to an axis (text lines, rules) or to a multiple of side/8 on both axes (JPEG
 * grid) are skipped.
 */
const AXIS_MARGIN = 2;
const JPEG_MARGIN = 1;
/**
 * Two patches' peaks agree within this many frequency bins (the Hann window spreads a peak over
 * about two).
 */
const AGREE_BINS = 1.5;

export interface RecaptureMeasure {
  /** Patches measured; 0 when the page is too small. */
  patches: number;
  patchSide: number;
  /**
   * Median over patches of the strongest peak's height over its radius's median, log10 power (1 =
   * 10 dB).
   */
  lumaPeak: number;
  chromaPeak: number;
  /** Where the luma peak of the median patch sits: cycles per pixel (0..0.5). */
  lumaPeakFrequency: number;
  /**
   * Patches whose strongest peak lies at the median patch's frequency (within AGREE_BINS): a
   * screen or halftone repeats at one frequency across the page, a genuine card's strongest
   * bins (guilloche, noise) scatter.
   */
  lumaAgreement: number;
  chromaAgreement: number;
}

interface Peak {
  height: number;
  frequency: number;
}

export function measureRecapture(rgb: Uint8Array, width: number, height: number): RecaptureMeasure {
  const side = PATCH;
  if (Math.min(width, height) < side)
    return {
      patches: 0,
      patchSide: side,
      lumaPeak: 0,
      chromaPeak: 0,
      lumaPeakFrequency: 0,
      lumaAgreement: 0,
      chromaAgreement: 0,
    };
  const luma: Peak[] = [];
  const chroma: Peak[] = [];
  const lumaPatch = new Float64Array(side * side);
  const chromaPatch = new Float64Array(side * side);
  const band = bandOf(side);
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      // Patches spread evenly, the outer ones a tenth in from the edge (frames, backgrounds).
      const x0 = Math.round(width * 0.1 + ((width * 0.8 - side) * gx) / (GRID - 1));
      const y0 = Math.round(height * 0.1 + ((height * 0.8 - side) * gy) / (GRID - 1));
      const px = Math.max(0, Math.min(width - side, x0));
      const py = Math.max(0, Math.min(height - side, y0));
      for (let y = 0; y < side; y++) {
        let i = ((py + y) * width + px) * 3;
        for (let x = 0; x < side; x++, i += 3) {
          const r = rgb[i]!;
          const g = rgb[i + 1]!;
          const b = rgb[i + 2]!;
          lumaPatch[y * side + x] = 0.299 * r + 0.587 * g + 0.114 * b;
          chromaPatch[y * side + x] = r - b;
        }
      }
      luma.push(strongestPeak(powerSpectrum(lumaPatch, side), side, band));
      chroma.push(strongestPeak(powerSpectrum(chromaPatch, side), side, band));
    }
  }
  const mid = medianPeak(luma);
  const chromaMid = medianPeak(chroma);
  return {
    patches: luma.length,
    patchSide: side,
    lumaPeak: mid.height,
    chromaPeak: chromaMid.height,
    lumaPeakFrequency: mid.frequency,
    lumaAgreement: agreeing(luma, mid, side),
    chromaAgreement: agreeing(chroma, chromaMid, side),
  };
}

interface Band {
  /** Per bin (v * side + u): its radius ring, or -1 where it is left out. */
  ring: Int32Array;
  rings: number;
}

const bands = new Map<number, Band>();

/**
 * Which bins are judged and their radius rings; the upper half-plane only (the spectrum of a real
 * patch is symmetric).
 */
function bandOf(side: number): Band {
  let band = bands.get(side);
  if (band) return band;
  const ring = new Int32Array(side * side).fill(-1);
  const low = side * LOW_BAND;
  const grid = side / 8;
  const signed = (k: number) => (k <= side / 2 ? k : k - side);
  for (let v = 0; v <= side / 2; v++) {
    for (let u = 0; u < side; u++) {
      const fu = signed(u);
      const r = Math.hypot(fu, v);
      if (r < low || r > side / 2) continue;
      if (Math.abs(fu) <= AXIS_MARGIN || v <= AXIS_MARGIN) continue;
      const nearGrid = (k: number) => Math.abs(k - Math.round(k / grid) * grid) <= JPEG_MARGIN;
      if (nearGrid(Math.abs(fu)) && nearGrid(v)) continue;
      ring[v * side + u] = Math.round(r);
    }
  }
  band = { ring, rings: side / 2 + 1 };
  bands.set(side, band);
  return band;
}

/** The highest bin over its ring's median, in log10 power. */
function strongestPeak(power: Float64Array, side: number, band: Band): Peak {
  const byRing: number[][] = Array.from({ length: band.rings }, () => []);
  const logs = new Float64Array(power.length);
  for (let i = 0; i < power.length; i++) {
    const r = band.ring[i]!;
    if (r < 0) continue;
    logs[i] = Math.log10(power[i]! + 1e-9);
    byRing[r]!.push(logs[i]!);
  }
  const medians = byRing.map((values) => (values.length === 0 ? 0 : upperMedian(values)));
  let best: Peak = { height: 0, frequency: 0 };
  for (let i = 0; i < power.length; i++) {
    const r = band.ring[i]!;
    if (r < 0) continue;
    const height = logs[i]! - medians[r]!;
    if (height > best.height)
      best = {
        height,
        frequency: Math.hypot(i % side <= side / 2 ? i % side : (i % side) - side, Math.floor(i / side)) / side,
      };
  }
  return best;
}

const agreeing = (peaks: Peak[], mid: Peak, side: number) =>
  peaks.filter((p) => Math.abs(p.frequency - mid.frequency) * side <= AGREE_BINS).length;

function medianPeak(peaks: Peak[]): Peak {
  const sorted = [...peaks].sort((a, b) => a.height - b.height);
  return sorted[sorted.length >> 1] ?? { height: 0, frequency: 0 };
}
