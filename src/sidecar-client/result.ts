// What the sidecar tells the API about a document, in the API's terms: boxes as the
// [x, y, width, height] tuples evidence uses, numbers instead of proto wrappers.
import type { AnalyzeDocumentResponse__Output } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { Box__Output } from "../../proto/generated/docverify/sidecar/v1/Box.ts";
import type { CopyMoveMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/CopyMoveMeasures.ts";
import type { DoubleQuantMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/DoubleQuantMeasures.ts";
import type { Fact__Output } from "../../proto/generated/docverify/sidecar/v1/Fact.ts";
import type { ForensicTrace__Output } from "../../proto/generated/docverify/sidecar/v1/ForensicTrace.ts";
import type { Heatmap__Output } from "../../proto/generated/docverify/sidecar/v1/Heatmap.ts";
import type { ImageFacts__Output } from "../../proto/generated/docverify/sidecar/v1/ImageFacts.ts";
import type { PortraitMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/PortraitMeasures.ts";
import type { RecaptureMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/RecaptureMeasures.ts";
import type { GreyDocumentMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/GreyDocumentMeasures.ts";
import type { ResidualMeasures__Output } from "../../proto/generated/docverify/sidecar/v1/ResidualMeasures.ts";
import type { TamperLocalisation__Output } from "../../proto/generated/docverify/sidecar/v1/TamperLocalisation.ts";
import type { CharacterReading } from "../analysis/content/text.ts";
import type { Box } from "../analysis/report.ts";

interface SidecarLine {
  text: string;
  /** 0..1 */
  confidence: number;
  /**
   * Per character of `text` (by code point): its probability and likeliest alternatives; empty from
   * a sidecar that does not send them.
   */
  characters: CharacterReading[];
  /** Four corners clockwise from top-left, in page pixels. */
  polygon: [number, number][];
  box: Box;
}

interface SidecarRegion {
  box: Box;
  /**
   * ela/noise: robust z-score of the area against the rest of the page; copy_move: correlation
   * 0..1.
   */
  score: number;
  /** The trace that found it, e.g. "ela", "noise", "copy_move". */
  trace: string;
}

interface SidecarHeatmap {
  width: number;
  height: number;
  /** width*height bytes, row-major, 0 clean .. 255 most suspicious. */
  values: Uint8Array;
}

type ImageFacts = ImageFacts__Output;

export type FactValue = number | string | boolean;

/**
 * A proto measures message as the detectors read it: its fields, each absent where the sidecar
 * did not send it (not measured, or a sidecar older than the field), without the loader's
 * `_field` markers of proto3 optional fields.
 */
type Measured<T> = { [K in keyof T as K extends `_${string}` ? never : K]?: Exclude<T[K], null | undefined> };

/**
 * What the pixel detectors judge a trace by, typed from the proto's ForensicTrace measures so
 * that a renamed field fails to compile instead of reading as unknown. At most one kind is
 * present, the trace's own; none from a sidecar older than these fields, which the detectors
 * treat as unknown thresholds and measures (they raise nothing), as they did a missing fact.
 */
export interface TraceMeasures {
  /** ela, noise. */
  residual?: Measured<ResidualMeasures__Output>;
  doubleQuant?: Measured<DoubleQuantMeasures__Output>;
  copyMove?: Measured<CopyMoveMeasures__Output>;
  portrait?: Omit<Measured<PortraitMeasures__Output>, "box"> & { box?: Box };
  recapture?: Measured<RecaptureMeasures__Output>;
  greyDocument?: Measured<GreyDocumentMeasures__Output>;
}

export interface SidecarTrace {
  /** "ela", "noise", "jpeg_grid", "double_quant", "copy_move", "portrait", "recapture", "grey_document". */
  name: string;
  /** 0 says nothing on this page .. 1 fully usable. */
  reliability: number;
  globalScore: number;
  /** For people: no detector reads them (they are free to change). */
  facts: Record<string, FactValue>;
  measures: TraceMeasures;
}

interface SidecarCopyMove {
  source: Box;
  target: Box;
  /** Normalised cross-correlation of the two areas, 0..1. */
  score: number;
}

/** What the learnt tampered-region localiser saw on a page. */
export interface SidecarLocalisation {
  /** The page's highest cell probability of tampering, 0..1. */
  score: number;
  /**
   * The score from which the sidecar reports a region (at most 1% of genuine validation pages reach
   * it).
   */
  threshold: number;
  /** 0 the model cannot see this page (too small) .. 1 fully usable. */
  reliability: number;
  /**
   * Groups of cells at or above the threshold, strongest first; score is the group's highest
   * probability.
   */
  regions: SidecarRegion[];
  heatmap: SidecarHeatmap | null;
  facts: Record<string, FactValue>;
}

export interface SidecarPage {
  index: number;
  /** The analysed pixels; every box is in this space. */
  width: number;
  height: number;
  /** Pixels per inch of the analysed pixels; 0 when an image declares no density. */
  dpi: number;
  /** Before downscaling: PDF page in points, image in pixels (upright). */
  sourceWidth: number;
  sourceHeight: number;
  /** Analysed pixels per source unit. */
  scale: number;
  lines: SidecarLine[];
  regions: SidecarRegion[];
  heatmap: SidecarHeatmap | null;
  facts: ImageFacts | null;
  /**
   * Per OCR line (index into lines), trace name → robust z-score against the page's other lines.
   */
  lineScores: { lineIndex: number; scores: Record<string, number> }[];
  forensicFacts: Record<string, FactValue>;
  traces: SidecarTrace[];
  copyMoves: SidecarCopyMove[];
  /** Areas away from text compressed once on a page compressed twice, largest first. */
  singleCompressedAreas: { box: Box; tiles: number; meanZ: number }[];
  /** Absent from a sidecar that has no localiser. */
  localisation?: SidecarLocalisation;
}

export interface SidecarAnalysis {
  pages: SidecarPage[];
  /** Pages in the document; more than pages.length when the sidecar's page limit cut it short. */
  pageCount: number;
  executionProviders: string[];
  /** Time the sidecar spent once it had the bytes. */
  elapsedMs: number;
  /** Which sidecar answered (host:port). */
  sidecar: string;
}

const box = (b: Box__Output | null): Box => (b ? [b.x, b.y, b.width, b.height] : [0, 0, 0, 0]);

function factValue(fact: Fact__Output): FactValue | undefined {
  if (fact.value === "number") return fact.number;
  if (fact.value === "text") return fact.text;
  if (fact.value === "flag") return fact.flag;
  return undefined;
}

const factRecord = (facts: Fact__Output[]): Record<string, FactValue> =>
  Object.fromEntries(
    facts.flatMap((fact) => {
      const value = factValue(fact);
      return value === undefined ? [] : [[fact.name, value]];
    }),
  );

/** The fields the sidecar sent, without the loader's markers and absent values. */
const measured = <T extends object>(message: T): Measured<T> =>
  Object.fromEntries(
    Object.entries(message).filter(([name, value]) => !name.startsWith("_") && value !== undefined && value !== null),
  ) as Measured<T>;

function portraitOf(portrait: PortraitMeasures__Output): TraceMeasures["portrait"] {
  const { box: found, ...rest } = measured(portrait);
  return { ...rest, ...(found ? { box: box(found) } : {}) };
}

function measuresOf(trace: ForensicTrace__Output): TraceMeasures {
  const { residual, doubleQuant, copyMove, portrait, recapture, greyDocument } = trace;
  return {
    ...(residual ? { residual: measured(residual) } : {}),
    ...(doubleQuant ? { doubleQuant: measured(doubleQuant) } : {}),
    ...(copyMove ? { copyMove: measured(copyMove) } : {}),
    ...(portrait ? { portrait: portraitOf(portrait) } : {}),
    ...(recapture ? { recapture: measured(recapture) } : {}),
    ...(greyDocument ? { greyDocument: measured(greyDocument) } : {}),
  };
}

const heatmapOf = (h: Heatmap__Output | null): SidecarHeatmap | null =>
  h && h.width > 0 ? { width: h.width, height: h.height, values: new Uint8Array(h.values) } : null;

const localisationOf = (l: TamperLocalisation__Output): SidecarLocalisation => ({
  score: l.score,
  threshold: l.threshold,
  reliability: l.reliability,
  regions: l.regions.map((region) => ({ box: box(region.box), score: region.score, trace: region.trace })),
  heatmap: heatmapOf(l.heatmap),
  facts: factRecord(l.facts),
});

export function fromResponse(response: AnalyzeDocumentResponse__Output, sidecar: string): SidecarAnalysis {
  return {
    pageCount: response.pageCount,
    executionProviders: response.executionProviders,
    elapsedMs: response.elapsedMs,
    sidecar,
    pages: response.pages.map((page) => ({
      index: page.index,
      width: page.width,
      height: page.height,
      dpi: page.dpi,
      sourceWidth: page.sourceWidth,
      sourceHeight: page.sourceHeight,
      scale: page.scale,
      lines: page.lines.map((line) => ({
        text: line.text,
        confidence: line.confidence,
        characters: line.characters.map((c) => ({
          probability: c.probability,
          alternatives: c.alternatives.map((a) => ({ character: a.character, probability: a.probability })),
        })),
        polygon: line.polygon.map((p) => [p.x, p.y] as [number, number]),
        box: box(line.box),
      })),
      regions: page.regions.map((region) => ({ box: box(region.box), score: region.score, trace: region.trace })),
      heatmap: heatmapOf(page.heatmap),
      facts: page.facts,
      lineScores: page.lineScores.map((entry) => ({
        lineIndex: entry.lineIndex,
        scores: Object.fromEntries(entry.scores.map((s) => [s.trace, s.score])),
      })),
      forensicFacts: factRecord(page.forensicFacts),
      traces: page.traces.map((trace) => ({
        name: trace.name,
        reliability: trace.reliability,
        globalScore: trace.globalScore,
        facts: factRecord(trace.facts),
        measures: measuresOf(trace),
      })),
      copyMoves: page.copyMoves.map((copy) => ({
        source: box(copy.source),
        target: box(copy.target),
        score: copy.score,
      })),
      singleCompressedAreas: page.singleCompressedAreas.map((area) => ({
        box: box(area.box),
        tiles: area.tiles,
        meanZ: area.meanZ,
      })),
      ...(page.localisation ? { localisation: localisationOf(page.localisation) } : {}),
    })),
  };
}
