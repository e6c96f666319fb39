// The in-process part of the analysis: structure and metadata detectors for the document's
// format, within a time budget. `inspectDocument` is what the full analysis (full-analyzer.ts)
// runs beside the sidecar; `createLocalAnalyzer` fuses it alone, for tests and tools that
// judge structure without pixels.
import type { IntakeDocument } from "../intake/document";
import type { DocumentText } from "./content/text";
import { DEFAULT_LIMITS, startBudget, type AnalysisLimits } from "./detector";
import { classifyDocumentType, documentTypeResult, type DocumentTypeInput } from "./document-type";
import { fuse } from "./fusion";
import { inspectImage } from "./image/inspect-image";
import { inspectPdf } from "./pdf/inspect-pdf";
import { reportOf, type AnalysisReport, type DetectorResult } from "./report";

export interface LocalAnalyzerOptions {
  limits?: Partial<AnalysisLimits>;
  /** Clock for date checks ("in the future") and the time budget. */
  now?: () => number;
}

export interface LocalInspection {
  format: IntakeDocument["format"];
  pages: number;
  detectors: DetectorResult[];
  /** The PDF's own text layer (points, top-left origin); no pages for images. */
  text: DocumentText;
  /** Size of the image in pixels, or of the first PDF page in points. */
  shape: Pick<DocumentTypeInput, "size" | "sizeInPoints">;
}

export const inspectDocument = async (doc: IntakeDocument, limits: AnalysisLimits, now: () => number): Promise<LocalInspection> => {
  const budget = startBudget(limits.timeBudgetMs, now);
  if (doc.format === "pdf") {
    const pdf = await inspectPdf(doc.bytes, limits, budget);
    return {
      format: "pdf",
      pages: pdf.pageCount,
      detectors: pdf.detectors,
      text: pdf.text,
      shape: pdf.firstPage ? { size: pdf.firstPage, sizeInPoints: true } : {},
    };
  }
  const image = await inspectImage(doc.bytes, doc.format, limits, budget, now());
  return {
    format: doc.format,
    pages: 1,
    detectors: image.detectors,
    text: { pages: [] },
    shape: { size: { width: image.width, height: image.height } },
  };
};

export const createLocalAnalyzer = (opts: LocalAnalyzerOptions = {}) => {
  const limits: AnalysisLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;
  return {
    analyze: async (doc: IntakeDocument): Promise<AnalysisReport> => {
      const inspection = await inspectDocument(doc, limits, now);
      const type = classifyDocumentType({ document: inspection.text, ...inspection.shape });
      // Without OCR and pixel forensics an image is judged on its metadata and tables
      // alone, which cannot be judged with high confidence.
      const fusion = fuse(inspection.detectors, { confidenceCeiling: doc.format === "pdf" ? "high" : "medium" });
      return reportOf(fusion, {
        documentType: type.documentType,
        detectors: [...inspection.detectors, documentTypeResult(type)],
        format: inspection.format,
        pages: inspection.pages,
      });
    },
  };
};
