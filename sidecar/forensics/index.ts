// Pixel forensics of one page: the per-pixel work runs as one ONNX graph (graph.ts), the
// per-block summaries in TypeScript. Every trace carries its reliability on this image, and
// line and region scores are robust z-scores within the page, so that low evidence lowers
// confidence downstream instead of raising a forgery score.
import { cueTraces, measureCues } from "../cues/index.ts";
import { assertRgb } from "../image/rgb.ts";
import type { Device } from "../ocr/providers.ts";
import { MAX_COMPARED_BLOCKS, MIN_CORRELATION, copyMoveInput, findCopyMoves } from "./copy-move.ts";
import { type ForensicsGraph, createForensicsGraph } from "./graph.ts";
import { BLOCK, CM_BLOCK } from "./graph-spec.ts";
import { type DoubleQuantSummary, DQ_LINE_Z_THRESHOLD, doubleQuantSummary, periodConfidence } from "./double-quant.ts";
import { DQ_AREA_MIN_TILES, singleCompressedAreas } from "./single-compressed-areas.ts";
import { readLumaCoefficients } from "./jpeg-coefficients.ts";
import { gridSummary } from "./jpeg-grid.ts";
import { readJpegTables } from "./jpeg-tables.ts";
import { ELA_LINE_Z_THRESHOLD, type ResidualScores, TILE, residualScores } from "./line-traces.ts";
import { DEFAULT_ELA_QUALITY, prepare } from "./prepare.ts";
import { clamp01, rankQuantile } from "../../src/numeric.ts";
import type {
  Box,
  LineScore,
  OcrLine,
  PixelForensics,
  PixelInput,
  Region,
  SingleCompressedArea,
  Trace,
  TraceMeasures,
} from "./types.ts";

export type * from "./types.ts";
export { createForensicsGraph, type ForensicsGraph } from "./graph.ts";
export { ELA_LINE_Z_THRESHOLD } from "./line-traces.ts";
export { DQ_LINE_Z_THRESHOLD } from "./double-quant.ts";
export { DQ_AREA_MIN_TILES } from "./single-compressed-areas.ts";

export interface AnalyzeOptions {
  /**
   * A graph shared across pages; without it one is created for `device` and kept for the process.
   */
  graph?: ForensicsGraph;
  device?: Device;
  /** Larger pages are refused (default 120 megapixels, as the OCR engine). */
  maxPixels?: number;
  /** Told the duration of the graph call alone (session.run), for metrics and benchmarks. */
  onGraphRun?(ms: number): void;
}

/** Tiles scoring above this robust z are reported as regions. */
const REGION_Z = 4;
const MAX_REGIONS = 4;
const HEATMAP_SIDE = 64;
const HEATMAP_FULL_SCALE_Z = 8;
const DEFAULT_MAX_PIXELS = 120_000_000;
/**
 * SRM residual of the paper's noise floor (below) from which sensor noise makes the noise trace
 * meaningful.
 */
const PAPER_NOISE_FULL = 1;
/**
 * The paper's noise floor: this quantile of the residual over its blocks without text. A
 * capture's sensor noise lies on every block of paper; a security print's fine lines (guilloche,
 * a ghost image's screen) raise the paper's mean residual as much but leave the gaps between
 * them flat. Measured on the seed-7 corpus's 654 images with their OCR lines
 * (`bun scripts/eval/measure-line-traces.ts --corpus DIR --out OUT`): judged by the mean, the
 * trace raised lines on 17 of 39 rendered genuine cards and 11 of 26 genuine editor re-saves,
 * whose "noise" is guilloche: 55 lines on genuine images and 28 on forged ones, 3 of them on the
 * forged field. The floor of rendered cards is at most 0.19, of the editor's re-saves
 * 0.27, of a real scanned passport 0.6; judged by it the trace raises 3 lines on one genuine
 * image (a printed and photographed bank statement, floor 0.91) and 3 on two forged licences,
 * one on the forged field.
 */
const PAPER_FLOOR_QUANTILE = 0.1;
/**
 * Paper noise over which error-level analysis stops counting, falling linearly from full
 * reliability at the first value. Its line threshold was measured on digital statements, whose
 * paper is clean (paper noise ~0). Measured on 53 captured images of the evaluation corpus
 * (scans, photos, re-saves): ELA lines passed the threshold on 6 of 23 genuine images (5 with
 * paper noise 0.26-0.46) and on 8 of 30 forgeries, never on the forged field: the
 * recompression error of a captured line follows its background (noise, guilloche), not its
 * history. With this gate, 1 genuine and 2 forged images keep an ELA line.
 */
const ELA_PAPER_NOISE = [0.1, 0.25] as const;

const sharedGraphs = new Map<Device, Promise<ForensicsGraph>>();

function graphFor(options: AnalyzeOptions): Promise<ForensicsGraph> {
  if (options.graph) return Promise.resolve(options.graph);
  const device = options.device ?? "cpu";
  let graph = sharedGraphs.get(device);
  if (!graph) {
    graph = createForensicsGraph({ device });
    sharedGraphs.set(device, graph);
  }
  return graph;
}

export async function analyzePixels(
  input: PixelInput,
  lines: OcrLine[],
  options: AnalyzeOptions = {},
): Promise<PixelForensics> {
  assertRgb({ data: input.rgb, width: input.width, height: input.height });
  if (input.width * input.height > (options.maxPixels ?? DEFAULT_MAX_PIXELS)) {
    throw new RangeError(`image of ${input.width}x${input.height} pixels exceeds the pixel limit`);
  }
  if (input.width < CM_BLOCK * 2 || input.height < CM_BLOCK * 2) return nothingToSay(input);
  const tables = input.jpeg ? readJpegTables(input.jpeg) : null;
  const elaQuality = tables ? Math.min(100, Math.max(50, tables.quality)) : DEFAULT_ELA_QUALITY;
  const prepared = prepare(input.rgb, input.width, input.height, elaQuality);
  const graph = await graphFor(options);
  const maps = await graph.run(prepared.rgb, prepared.width, prepared.height, prepared.elaSteps);
  options.onGraphRun?.(maps.ms);
  const boxes = lines.map((line) => line.box as Box);

  const ela = residualScores(maps, maps.ela, boxes);
  const noise = residualScores(maps, maps.noise, boxes);
  const grid = gridSummary(maps, boxes);
  const coefficients = input.jpeg && tables ? readLumaCoefficients(input.jpeg, input.width, input.height) : null;
  const dq = coefficients && tables ? doubleQuantSummary(coefficients, tables, maps, boxes, TILE) : null;
  const areas = dq
    ? singleCompressedAreas(dq, {
        rgb: input.rgb,
        width: input.width,
        height: input.height,
        lines: boxes,
        tileSide: TILE * BLOCK,
      })
    : [];
  // The paper's blocks' residuals, gathered into one typed array (a page holds up to ~10^5
  // blocks) for their mean and their floor.
  const residuals = new Float32Array(maps.edge.length);
  let paperBlocks = 0;
  let paperSum = 0;
  maps.edge.forEach((e, i) => {
    if (e >= 8) return;
    residuals[paperBlocks++] = maps.noise[i]!;
    paperSum += maps.noise[i]!;
  });
  const texturedBlocks = maps.edge.length - paperBlocks;
  const paperNoise = paperSum / Math.max(1, paperBlocks);
  const paperFloor = paperBlocks > 0 ? rankQuantile(residuals.subarray(0, paperBlocks), PAPER_FLOOR_QUANTILE) : 0;
  // Evidence factors (0..1): a page large enough and with enough textured area, enough
  // lines to compare, and a last compression gentle enough to leave its history visible.
  const sizeFactor = Math.min(
    clamp01((texturedBlocks - 100) / 400),
    clamp01((Math.min(input.width, input.height) - 300) / 400),
  );
  const lineFactor = clamp01((ela.usableLines - 4) / 6);
  const compressionFactor = tables ? clamp01((tables.quality - 40) / 40) : 1;
  const residualReliability = sizeFactor * lineFactor * compressionFactor;
  const cleanPaper = clamp01((ELA_PAPER_NOISE[1] - paperNoise) / (ELA_PAPER_NOISE[1] - ELA_PAPER_NOISE[0]));
  // A renderer draws the same content pixel for pixel wherever it repeats it (glyphs of a
  // title, a form's boxes), so on a page without sensor noise a verified identical area is no
  // sign of copying: measured on the real-documents set, the clone search reported identical
  // areas on 11 of 124 genuine pages (digital forms, rendered invoices, a letterhead's
  // repeated capitals), all with clean paper. Where paper carries noise, two printings of one
  // thing differ by it and only a copy stays identical; the search counts as far as noise does.
  const noisyPaper = 1 - cleanPaper;
  const copy = noisyPaper > 0 ? await findCopyMoves(copyMoveInput(maps, prepared, boxes)) : null;
  const copyNotJudged = !copy
    ? "clean page without sensor noise: a renderer repeats identical content pixel for pixel"
    : copy.judged
      ? null
      : `page too large for the clone search (at most ${MAX_COMPARED_BLOCKS} blocks)`;
  const copyMoves = copy?.copyMoves ?? [];

  // Portrait checks and recapture cues. A page photographed off a screen or a print carries
  // that capture's pattern over every fine trace, hiding the original's: where the recapture
  // cue passes its threshold, the residual, grid and double-compression traces count half.
  // The cues need the fine detail a last compression below q80 wipes out, and two patches'
  // width of page (256 pixels) before they say anything.
  const cueEvidence = compressionFactor * clamp01((Math.min(input.width, input.height) - 256) / 256);
  const cues = cueTraces(measureCues(prepared.rgb, prepared.width, prepared.height, maps, boxes, BLOCK), cueEvidence);
  const recaptured = cues.some((t) => t.name === "recapture" && t.reliability >= 0.5 && t.globalScore >= 1);
  const fine = recaptured ? 0.5 : 1;

  const traces = (
    [
      residualTrace("ela", ela, residualReliability * cleanPaper, {
        quality: elaQuality,
        qualitySource: tables ? "jpeg_tables" : "default",
        paperNoise,
      }),
      // Measured: on a clean digital render the noise residual is the ink's own rendering, and
      // genuine lines reach z 4-6, so the trace counts only where the paper itself is noisy (scans,
      // photos).
      residualTrace("noise", noise, residualReliability * clamp01(paperFloor / PAPER_NOISE_FULL), {
        paperNoise,
        paperFloor,
      }),
      {
        name: "jpeg_grid",
        reliability: sizeFactor * lineFactor * compressionFactor * clamp01(grid.strength / 0.1),
        globalScore: grid.strength,
        facts: { phaseX: grid.phaseX, phaseY: grid.phaseY, lastQuality: tables?.quality ?? "unknown" },
      },
      doubleQuantTrace(
        dq,
        areas,
        sizeFactor * compressionFactor,
        compressionFactor,
        input.jpeg ? (tables ? "not a baseline JPEG of this size" : "no JPEG tables") : "not a JPEG",
      ),
      {
        name: "copy_move",
        reliability: copyNotJudged ? 0 : sizeFactor * compressionFactor * noisyPaper,
        globalScore: copyMoves.reduce((m, c) => Math.max(m, c.score), 0),
        facts: {
          ...(copyNotJudged ? { reason: copyNotJudged } : {}),
          texturedBlocks: copy?.texturedBlocks ?? maps.copyMoveBlocks.length,
          bestVotes: copy?.bestVotes ?? 0,
          textToTextCompared: "no",
        },
        measures: {
          copyMove: { minCorrelation: MIN_CORRELATION, paperNoise, periodicMatches: copy?.periodicMatches ?? 0 },
        },
      },
    ] satisfies Trace[]
  ).map((t): Trace => (fine < 1 && t.name !== "copy_move" ? recapturedTrace(t, fine) : t));
  traces.push(...cues);

  const lineScores: LineScore[] = [];
  lines.forEach((_, lineIndex) => {
    const scores = [
      ["ela", ela.lines[lineIndex]],
      ["noise", noise.lines[lineIndex]],
      ["jpeg_grid", grid.lines[lineIndex]],
      ["double_quant", dq?.lines[lineIndex]],
    ] as const;
    for (const [trace, z] of scores) {
      if (z !== null && z !== undefined) lineScores.push({ lineIndex, trace, score: z });
    }
  });

  const regions: Region[] = [
    ...tileRegions(ela, "ela"),
    ...tileRegions(noise, "noise"),
    ...(dq ? tileRegions(dq, "double_quant") : []),
    ...copyMoves.map((c): Region => ({ box: c.target, score: c.score, trace: "copy_move" })),
  ]
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_REGIONS);

  return {
    traces,
    regions,
    lineScores,
    copyMoves,
    singleCompressedAreas: areas,
    heatmap: heatmap([ela, noise]),
  };
}

/**
 * A fine trace on a recaptured page: its reliability (and the double-compression areas') times
 * `factor`.
 */
function recapturedTrace(t: Trace, factor: number): Trace {
  const recaptured: Trace = { ...t, reliability: t.reliability * factor, facts: { ...t.facts, recaptured: "yes" } };
  if (t.measures && "doubleQuant" in t.measures) {
    const dq = t.measures.doubleQuant;
    recaptured.measures = { doubleQuant: { ...dq, areaReliability: dq.areaReliability * factor } };
  }
  return recaptured;
}

/**
 * The line threshold of the residual traces. The noise residual has no threshold of its own
 * measured yet; it counts only on noisy paper (its reliability says so), where the ELA
 * measurement is the best available.
 */
const RESIDUAL_MEASURES: TraceMeasures = { residual: { lineThreshold: ELA_LINE_Z_THRESHOLD } };

function residualTrace(
  name: "ela" | "noise",
  scores: ResidualScores,
  reliability: number,
  facts: Trace["facts"],
): Trace {
  const maxZ = scores.lines.reduce<number>((m, z) => (z !== null && z > m ? z : m), 0);
  return {
    name,
    reliability,
    globalScore: maxZ,
    facts: { ...facts, usableLines: scores.usableLines, pageLevel: scores.pageLevel },
    measures: RESIDUAL_MEASURES,
  };
}

/**
 * Double quantisation, judged only on a baseline JPEG whose coefficients could be read. Its
 * reliability is the other traces' size and compression evidence times how clearly the page
 * shows a first compression's period and how many lines could be judged. Areas need no lines
 * to compare with, nor a large page (a portrait fills much of an identity card): theirs,
 * `areaReliability`, is the period's clarity times the last compression's gentleness.
 */
function doubleQuantTrace(
  dq: DoubleQuantSummary | null,
  areas: SingleCompressedArea[],
  evidence: number,
  compressionFactor: number,
  absent: string,
): Trace {
  const thresholds = { lineThreshold: DQ_LINE_Z_THRESHOLD, areaThreshold: DQ_AREA_MIN_TILES };
  if (!dq)
    return {
      name: "double_quant",
      reliability: 0,
      globalScore: 0,
      facts: { reason: absent },
      measures: { doubleQuant: { ...thresholds, areaReliability: 0 } },
    };
  const maxZ = dq.lines.reduce<number>((m, z) => (z !== null && z > m ? z : m), 0);
  const period = periodConfidence(dq);
  return {
    name: "double_quant",
    reliability: evidence * period * clamp01((dq.usableLines - 4) / 6),
    globalScore: maxZ,
    facts: {
      largestAreaTiles: areas[0]?.tiles ?? 0,
      periodicCoefficients: dq.periods.length,
      periods: dq.periods.map((p) => p.period).join(","),
      periodContrast: dq.contrast,
      usableLines: dq.usableLines,
    },
    measures: { doubleQuant: { ...thresholds, areaReliability: period * compressionFactor } },
  };
}

function tileRegions(
  scores: { tiles: (number | null)[]; tileCols: number },
  trace: "ela" | "noise" | "double_quant",
): Region[] {
  const side = TILE * BLOCK;
  const out: Region[] = [];
  scores.tiles.forEach((z, i) => {
    if (z === null || z < REGION_Z) return;
    const box: Box = [(i % scores.tileCols) * side, Math.floor(i / scores.tileCols) * side, side, side];
    out.push({ box, score: z, trace });
  });
  return out;
}

/** The strongest positive tile z of the residual traces, max-pooled down to at most 64x64. */
function heatmap(traces: ResidualScores[]): PixelForensics["heatmap"] {
  const { tileCols, tileRows } = traces[0]!;
  const step = Math.max(1, Math.ceil(Math.max(tileCols, tileRows) / HEATMAP_SIDE));
  const width = Math.ceil(tileCols / step);
  const height = Math.ceil(tileRows / step);
  const data = new Uint8Array(width * height);
  for (const t of traces) {
    t.tiles.forEach((z, i) => {
      if (z === null || z <= 0) return;
      const cell = Math.floor(Math.floor(i / tileCols) / step) * width + Math.floor((i % tileCols) / step);
      data[cell] = Math.max(data[cell]!, Math.round(255 * clamp01(z / HEATMAP_FULL_SCALE_Z)));
    });
  }
  return { width, height, data };
}

/**
 * A page too small to hold even two copy-move blocks: every trace present, none usable; the
 * residual and copy-move traces still say their thresholds, as they always have.
 */
function nothingToSay(input: PixelInput): PixelForensics {
  const names = ["ela", "noise", "jpeg_grid", "double_quant", "copy_move", "portrait", "recapture"] as const;
  const thresholds: Partial<Record<(typeof names)[number], TraceMeasures>> = {
    ela: RESIDUAL_MEASURES,
    noise: RESIDUAL_MEASURES,
    copy_move: { copyMove: { minCorrelation: MIN_CORRELATION } },
  };
  return {
    traces: names.map((name): Trace => {
      const measures = thresholds[name];
      return {
        name,
        reliability: 0,
        globalScore: 0,
        facts: { reason: `page of ${input.width}x${input.height} is too small` },
        ...(measures ? { measures } : {}),
      };
    }),
    regions: [],
    lineScores: [],
    copyMoves: [],
    singleCompressedAreas: [],
    heatmap: { width: 1, height: 1, data: new Uint8Array(1) },
  };
}
