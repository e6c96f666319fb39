// The whole analysis of one document: the in-process structure and metadata detectors and
// the sidecar (OCR and pixel forensics) run side by side; the content checks then read the
// text (PDF text layer, else OCR), the pixel detectors judge the sidecar's traces, the
// duplicate check compares the document with what the same API key sent before, and one
// fusion turns all of it into the report. A sidecar that cannot answer fails the analysis
// (SERVICE_UNAVAILABLE, retryable): a report without its pixels would be a weaker verdict
// under the same name.
import type { IntakeDocument } from "../intake/document.ts";
import type { FingerprintStore } from "../store/fingerprints.ts";
import type { SidecarAnalysis, SidecarPage } from "../sidecar-client/result.ts";
import { inspectDocument, type LocalInspection } from "./analyze.ts";
import type { AnalysisContext, Analyzer } from "./analyzer.ts";
import { withApplicability } from "./applicability.ts";
import { BALANCES_DETECTOR, checkBalances } from "./content/balances.ts";
import { checkColumnAlignment, COLUMN_ALIGNMENT_DETECTOR } from "./content/column-alignment.ts";
import { checkDates, DATES_DETECTOR } from "./content/dates.ts";
import { checkDuplicates, computeFingerprint, FINGERPRINT_DETECTOR, type Fingerprint } from "./content/fingerprint.ts";
import type { PageImage } from "./content/page-image.ts";
import { checkMrz, MRZ_DETECTOR } from "./content/mrz.ts";
import { locatePortrait } from "./content/portrait.ts";
import type { DocumentText } from "./content/text.ts";
import { DEFAULT_LIMITS, notApplicable, runDetector, type AnalysisLimits } from "./detector.ts";
import { evidenceInPagePixels, mergeText } from "./document-text.ts";
import { classifyDocumentType, documentTypeResult } from "./document-type.ts";
import { IDENTITY_TYPES, type DocumentType } from "./flags.ts";
import { fuse } from "./fusion.ts";
import { IMAGE_METADATA_DETECTOR } from "./image/metadata.ts";
import { judgesType, type DetectorName } from "./manifest.ts";
import { COPY_MOVE_DETECTOR, detectCopyMove } from "./pixel/copy-move.ts";
import { detectPortraitTampering, PORTRAIT_DETECTOR } from "./pixel/portrait.ts";
import { detectReadingQuality } from "./pixel/reading-quality.ts";
import { detectRecapture, RECAPTURE_DETECTOR } from "./pixel/recapture.ts";
import { detectRegionTampering, REGION_TAMPERING_DETECTOR } from "./pixel/region-tampering.ts";
import { detectScreenshot } from "./pixel/screenshot.ts";
import { reportOf, type AnalysisReport, type DetectorResult } from "./report.ts";

export interface FullAnalyzerOptions {
  sidecar: { analyzeDocument(doc: IntakeDocument): Promise<SidecarAnalysis> };
  /**
   * The structure and metadata detectors; default in this thread (a worker pool may run them
   * instead).
   */
  inspect?: (doc: IntakeDocument) => Promise<LocalInspection>;
  /** Where fingerprints of each key's documents are kept; without it no duplicate check. */
  fingerprints?: Pick<FingerprintStore, "findSimilar" | "record">;
  limits?: Partial<AnalysisLimits>;
  now?: () => number;
}

/**
 * A pixel-forensics detector over the pages that are pictures: an image, or a PDF page a scan
 * or photo covers. A page drawn as text and paths is rendered by the sidecar, and its
 * rendering repeats glyphs and rules pixel for pixel and compresses nothing: clones and
 * error-level outliers there are the renderer's, and accused genuine invoices and bills made
 * by other tools. Edits to drawn pages are the structure detectors' to see.
 */
const onPictures = (
  detector: DetectorName,
  pages: SidecarPage[],
  detect: (pages: SidecarPage[]) => DetectorResult,
): DetectorResult =>
  pages.length > 0
    ? detect(pages)
    : notApplicable({ detector, evidence: [], facts: {}, coverage: 0 }, "every page is drawn, none a picture");

const hasCamera = (local: LocalInspection): boolean =>
  local.detectors.find((d) => d.detector === IMAGE_METADATA_DETECTOR)?.measurements?.namesCamera === true;

const pageAnalysis = (
  analysis: SidecarAnalysis,
  sources: Record<number, "pdf" | "ocr">,
  format: IntakeDocument["format"],
): DetectorResult => {
  const first = analysis.pages[0];
  const boxSpace =
    format === "pdf"
      ? `pixels of each page as analysed: rendered at ${Math.round((first?.scale ?? 1) * 72)} dpi (PDF points × ${(first?.scale ?? 1).toFixed(3)})`
      : `pixels of the image as analysed (${first?.width}x${first?.height}, upright${first && first.scale < 1 ? `, downscaled × ${first.scale.toFixed(3)}` : ""})`;
  return {
    detector: "page-analysis" satisfies DetectorName,
    evidence: [],
    facts: {
      boxSpace,
      pageCount: analysis.pageCount,
      pagesAnalysed: analysis.pages.length,
      textSource: Object.entries(sources).map(
        ([page, source]) => `page ${page}: ${source === "pdf" ? "PDF text layer" : "OCR"}`,
      ),
      executionProviders: analysis.executionProviders,
      sidecarMs: analysis.elapsedMs,
    },
    // Pages past the sidecar's page limit were not looked at.
    coverage: analysis.pageCount > 0 ? Math.min(1, analysis.pages.length / analysis.pageCount) : 0,
  };
};

export function createFullAnalyzer(options: FullAnalyzerOptions): Analyzer {
  const limits: AnalysisLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const { fingerprints } = options;
  const inspect = options.inspect ?? ((doc: IntakeDocument) => inspectDocument(doc, limits, now));

  const duplicates = async (
    doc: IntakeDocument,
    local: LocalInspection,
    keyId: string,
    text: DocumentText,
    type: DocumentType,
  ) => {
    let fingerprint: Fingerprint | undefined;
    const result = await runDetector(FINGERPRINT_DETECTOR, async () => {
      const image: PageImage | undefined = doc.format === "pdf" ? local.image : { encoded: doc.bytes };
      // Only an identity document's portrait is a person's: the same logo on two customers'
      // statements is no reuse.
      const page = text.pages[0];
      const identity = IDENTITY_TYPES.includes(type);
      const portrait = image && page && identity ? await locatePortrait(image, page) : null;
      fingerprint = await computeFingerprint({
        bytes: doc.bytes,
        ...(image ? { image } : {}),
        text,
        ...(portrait ? { portrait } : {}),
      });
      const checked = checkDuplicates(fingerprint, await fingerprints!.findSimilar(keyId, fingerprint));
      // Where the portrait was taken from, for an analyst checking a reused-portrait match.
      return identity ? { ...checked, facts: { ...checked.facts, portrait: portrait ?? "not located" } } : checked;
    });
    return { result, fingerprint };
  };

  return {
    analyze: async (doc: IntakeDocument, context: AnalysisContext): Promise<AnalysisReport> => {
      const [local, pixels] = await Promise.all([inspect(doc), options.sidecar.analyzeDocument(doc)]);
      const { text, sources } = mergeText(local.text, pixels);
      const type = classifyDocumentType({ document: text, ...local.shape });
      const today = { now: new Date(now()) };
      const content = await Promise.all([
        runDetector(MRZ_DETECTOR, () => checkMrz(text, { ...today, documentType: type.documentType })),
        runDetector(BALANCES_DETECTOR, () => checkBalances(text, today)),
        runDetector(DATES_DETECTOR, () => checkDates(text, today)),
        runDetector(COLUMN_ALIGNMENT_DETECTOR, () => checkColumnAlignment(text)),
      ]);
      const first = pixels.pages[0];
      const pictured = pixels.pages.filter((page) => !local.drawnPages.includes(page.index));
      const pixelResults: DetectorResult[] = [
        onPictures(REGION_TAMPERING_DETECTOR, pictured, detectRegionTampering),
        onPictures(COPY_MOVE_DETECTOR, pictured, detectCopyMove),
        // Only an identity document's portrait is judged: a bill's logo or a statement's chart is
        // no photo of anyone.
        judgesType(PORTRAIT_DETECTOR, type.documentType)
          ? onPictures(PORTRAIT_DETECTOR, pictured, detectPortraitTampering)
          : notApplicable(
              { detector: PORTRAIT_DETECTOR, evidence: [], facts: {}, coverage: 0 },
              "not an identity document",
            ),
        onPictures(RECAPTURE_DETECTOR, pictured, (pages) => detectRecapture(pages, type.documentType)),
        detectReadingQuality(pixels.pages),
        detectScreenshot({
          format: doc.format,
          width: first?.sourceWidth ?? 0,
          height: first?.sourceHeight ?? 0,
          camera: hasCamera(local),
        }),
      ];
      const duplicate =
        context.keyId && fingerprints
          ? await duplicates(doc, local, context.keyId, text, type.documentType)
          : undefined;

      const detectors = [
        ...evidenceInPagePixels(local.detectors, pixels),
        ...content.map((r) => withApplicability(r, type.documentType)),
        ...pixelResults,
        ...(duplicate ? [duplicate.result] : []),
        pageAnalysis(pixels, sources, doc.format),
      ];
      const fusion = fuse(detectors);
      if (duplicate?.fingerprint)
        await fingerprints!.record(context.keyId!, context.verificationId, duplicate.fingerprint, now());
      return reportOf(fusion, {
        documentType: type.documentType,
        detectors: [...detectors, documentTypeResult(type)],
        format: doc.format,
        pages: local.pages,
      });
    },
  };
}
