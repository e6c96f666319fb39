// The structure and metadata detectors fused on their own, without OCR or pixel forensics:
// lets unit tests judge what these detectors alone make of a document.
import type { IntakeDocument } from "../../src/intake/document.ts";
import { inspectDocument } from "../../src/analysis/analyze.ts";
import { DEFAULT_LIMITS, type AnalysisLimits } from "../../src/analysis/detector.ts";
import { classifyDocumentType, documentTypeResult } from "../../src/analysis/document-type.ts";
import { fuse } from "../../src/analysis/fusion.ts";
import { reportOf, type AnalysisReport } from "../../src/analysis/report.ts";

export interface LocalAnalyzerOptions {
  limits?: Partial<AnalysisLimits>;
  /** Clock for date checks ("in the future") and the time budget. */
  now?: () => number;
}

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
