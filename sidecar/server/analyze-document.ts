// One received document into the response: decode or render each page, read it, measure its
// pixel traces against the lines read, and describe it in the proto's terms. Pages are handled
// one after another so a document holds one page of pixels at a time; concurrent documents are
// what fill the OCR engine's batches.
import type { AnalyzeDocumentResponse } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { Box as ProtoBox } from "../../proto/generated/docverify/sidecar/v1/Box.ts";
import type { Fact } from "../../proto/generated/docverify/sidecar/v1/Fact.ts";
import type { ForensicTrace } from "../../proto/generated/docverify/sidecar/v1/ForensicTrace.ts";
import type { LineTraceScores } from "../../proto/generated/docverify/sidecar/v1/LineTraceScores.ts";
import type { Page } from "../../proto/generated/docverify/sidecar/v1/Page.ts";
import {
  type ForensicsGraph,
  type PixelForensics,
  type Trace,
  type TraceMeasures,
  analyzePixels,
} from "../forensics/index.ts";
import { type OcrEngine, type OcrLine, OcrInputError } from "../ocr/engine.ts";
import { type DecodedPage, decodeImage } from "./decode-image.ts";
import { invalidDocument } from "./errors.ts";
import type { DocumentLimits } from "./limits.ts";
import { BYTES_PER_PIXEL, type MemoryBudget } from "./memory-budget.ts";
import type { ReceivedDocument } from "./receive.ts";
import type { PdfRenderer } from "./render-pdf.ts";

export interface DocumentAnalyzerOptions {
  ocr: OcrEngine;
  /** The pixel forensics graph, created once at start-up and shared by every page. */
  forensics: ForensicsGraph;
  renderer: PdfRenderer;
  limits: DocumentLimits;
  /** Memory the pages in flight may hold; without it pages are not counted (tests). */
  memory?: MemoryBudget;
}

export type DocumentAnalyzer = (document: ReceivedDocument, signal: AbortSignal) => Promise<AnalyzeDocumentResponse>;

interface PageInput extends DecodedPage {
  index: number;
  /**
   * The file's bytes when the page is a JPEG image: its tables tell the forensics how it was last
   * saved.
   */
  jpeg?: Uint8Array;
}

const protoBox = ([x, y, width, height]: readonly number[]): ProtoBox => ({
  x: Math.max(0, Math.round(x!)),
  y: Math.max(0, Math.round(y!)),
  width: Math.max(0, Math.round(width!)),
  height: Math.max(0, Math.round(height!)),
});

const facts = (values: Record<string, number | string | boolean>): Fact[] =>
  Object.entries(values).flatMap(([name, value]): Fact[] => {
    if (typeof value === "number") return Number.isFinite(value) ? [{ name, number: value }] : [];
    return [typeof value === "string" ? { name, text: value } : { name, flag: value }];
  });

/**
 * A trace's measures in the proto's typed fields. The thresholds the forensics were measured
 * against travel with each trace, so that the API judges a remote sidecar's scores by that
 * sidecar's own measurements.
 */
function protoMeasures(measures: TraceMeasures | undefined): Partial<ForensicTrace> {
  if (!measures) return {};
  if (!("portrait" in measures)) return measures;
  const { box, ...portrait } = measures.portrait;
  return { portrait: { ...portrait, ...(box ? { box: protoBox(box) } : {}) } };
}

/**
 * The same measures as facts under their field names (a portrait's box as boxX, boxY,
 * boxWidth, boxHeight): APIs older than the typed fields read them so, and proto v1 only
 * adds. Nothing in this API reads them back.
 */
function legacyFacts(measures: TraceMeasures | undefined): Record<string, number | string> {
  const { box, ...values }: Record<string, unknown> = Object.assign({}, ...Object.values(measures ?? {}));
  const [boxX, boxY, boxWidth, boxHeight] = Array.isArray(box) ? box : [];
  return Object.fromEntries(
    Object.entries({ boxX, boxY, boxWidth, boxHeight, ...values }).filter(
      (entry): entry is [string, number | string] => typeof entry[1] === "number" || typeof entry[1] === "string",
    ),
  );
}

const protoTrace = (trace: Trace): ForensicTrace => ({
  name: trace.name,
  reliability: trace.reliability,
  globalScore: trace.globalScore,
  facts: facts({ ...trace.facts, ...legacyFacts(trace.measures) }),
  ...protoMeasures(trace.measures),
});

/** The forensics of one page in the proto's fields; every box is in the page's analysed pixels. */
function forensicFields(
  pixels: PixelForensics,
  ms: number,
): Pick<
  Page,
  "regions" | "heatmap" | "lineScores" | "forensicFacts" | "traces" | "copyMoves" | "singleCompressedAreas"
> {
  const byLine = new Map<number, LineTraceScores>();
  for (const { lineIndex, trace, score } of pixels.lineScores) {
    const entry = byLine.get(lineIndex) ?? { lineIndex, scores: [] };
    entry.scores!.push({ trace, score });
    byLine.set(lineIndex, entry);
  }
  return {
    regions: pixels.regions.map((region) => ({ box: protoBox(region.box), score: region.score, trace: region.trace })),
    heatmap: { width: pixels.heatmap.width, height: pixels.heatmap.height, values: Buffer.from(pixels.heatmap.data) },
    lineScores: [...byLine.values()],
    traces: pixels.traces.map(protoTrace),
    copyMoves: pixels.copyMoves.map((copy) => ({
      source: protoBox(copy.source),
      target: protoBox(copy.target),
      score: copy.score,
    })),
    singleCompressedAreas: pixels.singleCompressedAreas.map((area) => ({
      box: protoBox(area.box),
      tiles: area.tiles,
      meanZ: area.meanZ,
    })),
    forensicFacts: facts({ forensics_ms: Math.round(ms) }),
  };
}

export function createDocumentAnalyzer({
  ocr,
  forensics,
  renderer,
  limits,
  memory,
}: DocumentAnalyzerOptions): DocumentAnalyzer {
  const readPage = async (input: PageInput): Promise<Page> => {
    let lines: OcrLine[];
    try {
      lines = await ocr.readImage(input.image);
    } catch (error) {
      if (error instanceof OcrInputError) throw invalidDocument(`page ${input.index + 1}: ${error.reason}`, error);
      throw error;
    }
    const started = performance.now();
    const pixels = await analyzePixels(
      {
        rgb: input.image.data,
        width: input.image.width,
        height: input.image.height,
        ...(input.jpeg ? { jpeg: input.jpeg } : {}),
      },
      lines,
      { graph: forensics, maxPixels: limits.maxPagePixels },
    );
    return {
      index: input.index,
      width: input.image.width,
      height: input.image.height,
      dpi: input.dpi,
      sourceWidth: input.sourceWidth,
      sourceHeight: input.sourceHeight,
      scale: input.scale,
      facts: input.facts,
      lines: lines.map((line) => ({
        text: line.text,
        confidence: line.confidence,
        characters: line.characters,
        polygon: line.polygon.map(([x, y]) => ({ x, y })),
        box: protoBox(line.box),
      })),
      ...forensicFields(pixels, performance.now() - started),
    };
  };

  return async (document, signal) => {
    const started = performance.now();
    const pages: Page[] = [];
    let pageCount = 1;
    if (document.format === "pdf") {
      pageCount = await renderer.render(document.bytes, signal, async (rendered) => {
        const { width, height } = rendered.image;
        const release = await memory?.reserve(
          width * height * BYTES_PER_PIXEL,
          `page ${rendered.index + 1} (${width}x${height} pixels)`,
          signal,
        );
        try {
          pages.push(
            await readPage({
              index: rendered.index,
              image: rendered.image,
              dpi: rendered.scale * 72,
              sourceWidth: rendered.widthPt,
              sourceHeight: rendered.heightPt,
              scale: rendered.scale,
              facts: {
                format: "pdf",
                storedWidth: rendered.image.width,
                storedHeight: rendered.image.height,
                channels: 3,
                colorSpace: "srgb",
                depth: "uchar",
              },
            }),
          );
        } finally {
          release?.();
        }
      });
    } else {
      let release: (() => void) | undefined;
      try {
        const decoded = await decodeImage(document.bytes, document.format, limits, async (bytes) => {
          // The page is already scaled to fit the budget; what turning it upright adds on top
          // is within the budget's rounding, so it never refuses an image the pixel limit took.
          if (memory) release = await memory.reserve(Math.min(bytes, memory.totalBytes), "the image", signal);
        });
        pages.push(
          await readPage({ index: 0, ...decoded, ...(document.format === "jpeg" ? { jpeg: document.bytes } : {}) }),
        );
      } finally {
        release?.();
      }
    }
    return {
      pages,
      pageCount,
      executionProviders: ocr.executionProviders,
      elapsedMs: Math.round(performance.now() - started),
    };
  };
}
