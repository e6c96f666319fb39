// Aligned double JPEG compression, after Lukáš & Fridrich (2003): a JPEG decoded and
// saved again at another quality has DCT histograms that a single quantization cannot
// produce. The unquantized histogram is estimated by "calibration" — the DCT of the
// image shifted by 4 pixels, off the JPEG grid — and the histogram measured on the grid
// is then compared with two models built from it: quantized once with the final table
// (single compression), or first with a candidate primary step and then the final one
// (double compression). When a double model fits far better than the single one across
// many frequencies, the file was compressed twice; the best primary steps give away the
// first quality.
import sharp from "sharp";
import { blockDct } from "./block-dct.ts";
import { ijgTable } from "../../jpeg/ijg-quality.ts";
import { clamp01 } from "../../numeric.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { ZIGZAG_TO_NATURAL } from "../../jpeg/markers.ts";
import type { JpegTablesSummary } from "./jpeg-tables.ts";
import type { DetectorName } from "../manifest.ts";
import { doubleCompressionThreshold } from "../thresholds.ts";

export const DOUBLE_COMPRESSION_DETECTOR = "double-jpeg-compression" satisfies DetectorName;

/** Low-frequency AC positions examined (zigzag 1..20): the ones with enough energy. */
const POSITIONS = Array.from({ length: 20 }, (_, i) => ZIGZAG_TO_NATURAL[i + 1]!);
const HALF_RANGE = 15;
/** Largest analysed square, in pixels: 16 384 blocks are plenty and bound the time. */
const MAX_SIDE = 1024;
/** Blocks below which a histogram is too thin to judge. */
const MIN_BLOCKS = 1500;
/**
 * A frequency supports double compression when the best double model leaves at most
 * this share of the single model's misfit.
 */
const SUPPORT_RATIO = 0.5;

export interface DoubleCompressionResult {
  /** Mean over informative frequencies of (1 − best double misfit / single misfit). */
  score: number;
  informativeFrequencies: number;
  supportingFrequencies: number;
  /** IJG quality whose table agrees with most estimated primary steps, if any. */
  estimatedPrimaryQuality?: number;
  analysedBlocks: number;
}

const histogram = (values: Float64Array, step: (v: number) => number): Float64Array => {
  const h = new Float64Array(2 * HALF_RANGE + 1);
  for (const v of values) {
    const k = step(v);
    if (k >= -HALF_RANGE && k <= HALF_RANGE) h[k + HALF_RANGE]!++;
  }
  return h;
};

const misfit = (observed: Float64Array, model: Float64Array, scale: number): number => {
  let s = 0;
  for (let i = 0; i < observed.length; i++) {
    const m = model[i]! * scale;
    const d = observed[i]! - m;
    s += (d * d) / (observed[i]! + m + 1);
  }
  return s;
};

/** JPEG's luma (ITU-R BT.601) from interleaved RGB. */
const luma = (rgb: Uint8Array, pixels: number, channels: number): Float32Array => {
  const y = new Float32Array(pixels);
  for (let i = 0; i < pixels; i++) {
    const o = i * channels;
    y[i] = channels >= 3 ? 0.299 * rgb[o]! + 0.587 * rgb[o + 1]! + 0.114 * rgb[o + 2]! : rgb[o]!;
  }
  return y;
};

const coefficientsAt = (plane: Float32Array, width: number, height: number, offset: number): Float64Array[] => {
  const bw = Math.floor((width - offset) / 8);
  const bh = Math.floor((height - offset) / 8);
  const shifted = new Float32Array(bw * 8 * bh * 8);
  for (let y = 0; y < bh * 8; y++) {
    shifted.set(plane.subarray((y + offset) * width + offset, (y + offset) * width + offset + bw * 8), y * bw * 8);
  }
  const out = POSITIONS.map(() => new Float64Array(bw * bh));
  const tmp = new Float64Array(64);
  const block = new Float64Array(64);
  let i = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, i++) {
      blockDct(shifted, bw * 8, bx, by, tmp, block);
      for (let j = 0; j < POSITIONS.length; j++) out[j]![i] = block[POSITIONS[j]!]!;
    }
  }
  return out;
};

/**
 * Decodes (bounded by `maxPixels`) the top-left ≤1024² region on the JPEG grid and
 * measures how much better double quantization explains its luma DCT histograms.
 * `lumaTable` is the final luminance table, natural order.
 */
export const measureDoubleCompression = async (
  jpeg: Uint8Array,
  lumaTable: Uint16Array,
  maxPixels: number,
): Promise<DoubleCompressionResult> => {
  const img = sharp(jpeg, { limitInputPixels: maxPixels, failOn: "error" });
  const meta = await img.metadata();
  const width = Math.min(meta.width ?? 0, MAX_SIDE);
  const height = Math.min(meta.height ?? 0, MAX_SIDE);
  const { data, info } = await img
    .extract({ left: 0, top: 0, width, height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = luma(data, info.width * info.height, info.channels);
  const onGrid = coefficientsAt(plane, info.width, info.height, 0);
  const calibrated = coefficientsAt(plane, info.width, info.height, 4);
  const blocks = onGrid[0]!.length;
  const result: DoubleCompressionResult = {
    score: 0,
    informativeFrequencies: 0,
    supportingFrequencies: 0,
    analysedBlocks: blocks,
  };
  if (blocks < MIN_BLOCKS) return result;

  const scale = blocks / calibrated[0]!.length;
  const estimates: Array<{ position: number; step: number }> = [];
  let reduction = 0;
  POSITIONS.forEach((position, j) => {
    const q2 = lumaTable[position]!;
    const observed = histogram(onGrid[j]!, (v) => Math.round(v / q2));
    // A step of 1 hides quantization; a nearly empty histogram says nothing.
    if (q2 < 2 || blocks - observed[HALF_RANGE]! < blocks * 0.1) return;
    const single = misfit(
      observed,
      histogram(calibrated[j]!, (v) => Math.round(v / q2)),
      scale,
    );
    let best = Number.POSITIVE_INFINITY;
    let bestStep = 0;
    // Primary steps within ±15% of the final one leave traces only far in the tails,
    // where calibration error dominates: they are not candidates.
    for (let q1 = 1; q1 <= Math.min(60, 3 * q2); q1++) {
      if (Math.abs(q1 - q2) < Math.max(2, 0.15 * q2)) continue;
      const model = histogram(calibrated[j]!, (v) => Math.round((Math.round(v / q1) * q1) / q2));
      const m = misfit(observed, model, scale);
      if (m < best) {
        best = m;
        bestStep = q1;
      }
    }
    const ratio = single > 0 ? best / single : 1;
    result.informativeFrequencies++;
    reduction += Math.max(0, 1 - ratio);
    if (ratio <= SUPPORT_RATIO) {
      result.supportingFrequencies++;
      estimates.push({ position, step: bestStep });
    }
  });
  if (result.informativeFrequencies === 0) return result;
  result.score = reduction / result.informativeFrequencies;

  let bestAgreement = 0;
  for (let q = 1; q <= 100; q++) {
    const table = ijgTable(q);
    const agree = estimates.filter((e) => table[e.position] === e.step).length;
    if (agree > bestAgreement) {
      bestAgreement = agree;
      result.estimatedPrimaryQuality = q;
    }
  }
  // One agreeing frequency is chance, not an estimate.
  if (bestAgreement < 3) delete result.estimatedPrimaryQuality;
  return result;
};

/**
 * The detector: double compression is evidence of a re-save, not of an edit. A messaging
 * app re-encoding once leaves the same trace, so the strength stays modest and the fusion
 * only weighs it fully beside editing software or a region inconsistency.
 */
export const detectDoubleCompression = async (
  jpeg: Uint8Array,
  tables: JpegTablesSummary,
  maxPixels: number,
): Promise<DetectorResult> => {
  if (!tables.lumaTable || tables.quality === undefined) {
    return { detector: DOUBLE_COMPRESSION_DETECTOR, evidence: [], facts: { skipped: "no luma table" }, coverage: 0 };
  }
  const r = await measureDoubleCompression(jpeg, tables.lumaTable, maxPixels);
  const threshold = doubleCompressionThreshold(tables.quality);
  const facts = {
    score: Number(r.score.toFixed(3)),
    threshold,
    informativeFrequencies: r.informativeFrequencies,
    supportingFrequencies: r.supportingFrequencies,
    analysedBlocks: r.analysedBlocks,
    finalQuality: tables.quality,
    ...(r.estimatedPrimaryQuality !== undefined ? { estimatedPrimaryQuality: r.estimatedPrimaryQuality } : {}),
  };
  // Few usable frequencies (q ≥ 95 hides quantization), few blocks, or a low final
  // quality (calibration degrades) all mean the test saw less.
  const coverage =
    clamp01(r.informativeFrequencies / 10) * clamp01(r.analysedBlocks / 4000) * (tables.quality < 70 ? 0.5 : 1);
  const evidence: Evidence[] =
    r.score > threshold
      ? [
          {
            flag: "double_jpeg_compression" as const,
            detector: DOUBLE_COMPRESSION_DETECTOR,
            strength: clamp01(0.3 + ((r.score - threshold) / (0.8 - threshold)) * 0.5),
            message:
              r.estimatedPrimaryQuality !== undefined
                ? `Compressed twice: first at quality ≈${r.estimatedPrimaryQuality}, then at ${tables.quality}`
                : `Compressed twice (last at quality ${tables.quality})`,
            measured: Number(r.score.toFixed(3)),
            threshold,
          },
        ]
      : [];
  return {
    detector: DOUBLE_COMPRESSION_DETECTOR,
    evidence,
    facts,
    coverage,
    measurements: { doubleCompression: { score: facts.score, threshold } },
  };
};
