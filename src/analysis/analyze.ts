// The in-process part of the analysis: structure and metadata detectors for the document's
// format, within a time budget. `inspectDocument` is what the full analysis (full-analyzer.ts)
// runs beside the sidecar (in worker threads, worker/local-analysis-pool.ts).
import type { IntakeDocument } from "../intake/document.ts";
import type { PageImage } from "./content/page-image.ts";
import type { DocumentText } from "./content/text.ts";
import { startBudget, type AnalysisLimits } from "./detector.ts";
import type { DocumentTypeInput } from "./document-type.ts";
import { inspectImage } from "./image/inspect-image.ts";
import { inspectPdf } from "./pdf/inspect-pdf.ts";
import type { DetectorResult } from "./report.ts";

export interface LocalInspection {
  format: IntakeDocument["format"];
  pages: number;
  detectors: DetectorResult[];
  /** The PDF's own text layer (points, top-left origin); no pages for images. */
  text: DocumentText;
  /**
   * A PDF's first page rendered small, for the duplicate fingerprint (an image is its own picture).
   */
  image?: PageImage;
  /** Size of the image in pixels, or of the first PDF page in points. */
  shape: Pick<DocumentTypeInput, "size" | "sizeInPoints">;
  /** A PDF's pages drawn rather than photographed (0-based, inspect-pdf.ts); none for images. */
  drawnPages: number[];
}

export const inspectDocument = async (
  doc: IntakeDocument,
  limits: AnalysisLimits,
  now: () => number,
): Promise<LocalInspection> => {
  const budget = startBudget(limits.timeBudgetMs, now);
  if (doc.format === "pdf") {
    const pdf = await inspectPdf(doc.bytes, limits, budget);
    return {
      format: "pdf",
      pages: pdf.pageCount,
      detectors: pdf.detectors,
      text: pdf.text,
      ...(pdf.thumbnail ? { image: pdf.thumbnail } : {}),
      shape: pdf.firstPage ? { size: pdf.firstPage, sizeInPoints: true } : {},
      drawnPages: pdf.drawnPages,
    };
  }
  const image = await inspectImage(doc.bytes, doc.format, limits, budget, now());
  return {
    format: doc.format,
    pages: 1,
    detectors: image.detectors,
    text: { pages: [] },
    shape: { size: { width: image.width, height: image.height } },
    drawnPages: [],
  };
};
