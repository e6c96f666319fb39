// The in-process analyzer: structure and metadata detectors for the document's format,
// within a time budget, fused into a report.
import type { IntakeDocument } from "../intake/document";
import type { Analyzer } from "./analyzer";
import { DEFAULT_LIMITS, startBudget, type AnalysisLimits } from "./detector";
import { classifyDocumentType } from "./document-type";
import { fuse } from "./fusion";
import { inspectImage } from "./image/inspect-image";
import { inspectPdf } from "./pdf/inspect-pdf";
import type { AnalysisReport, DetectorResult } from "./report";

export interface LocalAnalyzerOptions {
  limits?: Partial<AnalysisLimits>;
  /** Clock for date checks ("in the future") and the time budget. */
  now?: () => number;
}

const DOCUMENT_TYPE_DETECTOR = "document-type";

const documentTypeResult = (documentType: string, basis: string): DetectorResult => ({
  detector: DOCUMENT_TYPE_DETECTOR,
  evidence: [],
  facts: { documentType, basis },
  coverage: 1,
});

export const createLocalAnalyzer = (opts: LocalAnalyzerOptions = {}): Analyzer => {
  const limits: AnalysisLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;

  const analyzeImage = async (doc: IntakeDocument & { format: "jpeg" | "png" }): Promise<AnalysisReport> => {
    const budget = startBudget(limits.timeBudgetMs, now);
    const image = await inspectImage(doc.bytes, doc.format, limits, budget, now());
    const type = classifyDocumentType({ size: { width: image.width, height: image.height } });
    // Pixel forensics and OCR are not part of this analyzer: an image judged on its
    // metadata and tables alone cannot be judged with high confidence.
    const fusion = fuse(image.detectors, { confidenceCeiling: "medium" });
    return {
      documentType: type.documentType,
      forgeryScore: fusion.forgeryScore,
      confidence: fusion.confidence,
      flags: fusion.flags,
      evidence: fusion.evidence,
      detectors: [...image.detectors, documentTypeResult(type.documentType, type.basis)],
      format: doc.format,
      pages: 1,
    };
  };

  const analyzePdf = async (doc: IntakeDocument): Promise<AnalysisReport> => {
    const budget = startBudget(limits.timeBudgetMs, now);
    const pdf = await inspectPdf(doc.bytes, limits, budget);
    const text = pdf.text.pages.map((p) => p.lines.map((l) => l.text).join("\n")).join("\n");
    const type = classifyDocumentType({ text, ...(pdf.firstPage ? { size: pdf.firstPage, sizeInPoints: true } : {}) });
    const fusion = fuse(pdf.detectors);
    return {
      documentType: type.documentType,
      forgeryScore: fusion.forgeryScore,
      confidence: fusion.confidence,
      flags: fusion.flags,
      evidence: fusion.evidence,
      detectors: [...pdf.detectors, documentTypeResult(type.documentType, type.basis)],
      format: "pdf",
      pages: pdf.pageCount,
    };
  };

  return {
    analyze: (doc) =>
      doc.format === "pdf" ? analyzePdf(doc) : analyzeImage({ ...doc, format: doc.format }),
  };
};
