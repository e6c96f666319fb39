// One received document into the response: decode or render each page, read it, and describe
// it in the proto's terms. Pages are handled one after another so a document holds one page of
// pixels at a time; concurrent documents are what fill the OCR engine's batches.
import type { AnalyzeDocumentResponse } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { ImageFacts } from "../../proto/generated/docverify/sidecar/v1/ImageFacts.ts";
import type { Page } from "../../proto/generated/docverify/sidecar/v1/Page.ts";
import type { RgbImage } from "../image/rgb.ts";
import { type OcrEngine, type OcrLine, OcrInputError } from "../ocr/engine.ts";
import { decodeImage } from "./decode-image.ts";
import { invalidDocument } from "./errors.ts";
import type { DocumentLimits } from "./limits.ts";
import type { ReceivedDocument } from "./receive.ts";
import type { PdfRenderer } from "./render-pdf.ts";

export interface DocumentAnalyzerOptions {
  ocr: OcrEngine;
  renderer: PdfRenderer;
  limits: DocumentLimits;
}

export type DocumentAnalyzer = (document: ReceivedDocument, signal: AbortSignal) => Promise<AnalyzeDocumentResponse>;

interface PageInput {
  index: number;
  image: RgbImage;
  dpi: number;
  sourceWidth: number;
  sourceHeight: number;
  scale: number;
  facts: ImageFacts;
}

export function createDocumentAnalyzer({ ocr, renderer, limits }: DocumentAnalyzerOptions): DocumentAnalyzer {
  const readPage = async (input: PageInput): Promise<Page> => {
    let lines: OcrLine[];
    try {
      lines = await ocr.readImage(input.image);
    } catch (error) {
      if (error instanceof OcrInputError) throw invalidDocument(`page ${input.index + 1}: ${error.reason}`, error);
      throw error;
    }
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
        polygon: line.polygon.map(([x, y]) => ({ x, y })),
        box: { x: line.box[0], y: line.box[1], width: line.box[2], height: line.box[3] },
      })),
      // Filled by the pixel forensics (sidecar/forensics) once it is wired in; never invented here.
      regions: [],
      heatmap: null,
      lineScores: [],
      forensicFacts: [],
    };
  };

  return async (document, signal) => {
    const started = performance.now();
    const pages: Page[] = [];
    let pageCount = 1;
    if (document.format === "pdf") {
      pageCount = await renderer.render(document.bytes, signal, async (rendered) => {
        pages.push(
          await readPage({
            index: rendered.index,
            image: rendered.image,
            dpi: rendered.scale * 72,
            sourceWidth: rendered.widthPt,
            sourceHeight: rendered.heightPt,
            scale: rendered.scale,
            facts: { format: "pdf", storedWidth: rendered.image.width, storedHeight: rendered.image.height, channels: 3, colorSpace: "srgb", depth: "uchar" },
          }),
        );
      });
    } else {
      const decoded = await decodeImage(document.bytes, document.format, limits);
      pages.push(await readPage({ index: 0, ...decoded }));
    }
    return {
      pages,
      pageCount,
      executionProviders: ocr.executionProviders,
      elapsedMs: Math.round(performance.now() - started),
    };
  };
}
