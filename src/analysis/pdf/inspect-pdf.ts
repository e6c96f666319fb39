// Runs the PDF detectors over one opened document and returns its text layer for the
// content rules.
import { AppError } from "../../errors.ts";
import { runDetector, type AnalysisLimits, type Budget } from "../detector.ts";
import type { PageImage } from "../content/page-image.ts";
import type { DocumentText } from "../content/text.ts";
import type { DetectorName } from "../manifest.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { detectActiveContent, PDF_ACTIVE_CONTENT_DETECTOR } from "./active-content.ts";
import { detectAnnotationOverlay, PDF_ANNOTATIONS_DETECTOR } from "./annotations.ts";
import { renderFirstPage } from "./first-page-image.ts";
import { detectFontInconsistency, PDF_FONTS_DETECTOR } from "./fonts.ts";
import { detectPdfMetadata, PDF_METADATA_DETECTOR } from "./metadata.ts";
import { openPdf } from "./open.ts";
import { detectTextOverlay, PDF_OVERLAY_DETECTOR } from "./overlay.ts";
import { rasterShare, readPages, toDocumentTextPages, type PageContent } from "./page-content.ts";
import { detectRevisions, PDF_REVISIONS_DETECTOR } from "./revisions.ts";
import { detectTextOperators, PDF_TEXT_OPERATORS_DETECTOR } from "./text-operators.ts";

export interface PdfInspection {
  detectors: DetectorResult[];
  pageCount: number;
  /** Size of the first page in points. */
  firstPage?: { width: number; height: number };
  /** The first page as a small picture, for the duplicate fingerprint. */
  thumbnail?: PageImage;
  text: DocumentText;
  /**
   * 0-based pages read and found drawn, not photographed: raster images cover under half of
   * them (DRAWN_PAGE_MAX_RASTER). Pixel traces of such a page measure the renderer, not the
   * document.
   */
  drawnPages: number[];
}

/** Reads the pages for the page detectors; its failure is theirs. */
const PDF_PAGES_DETECTOR = "pdf-pages" satisfies DetectorName;

/**
 * Largest share of a page raster images may cover for it to count as drawn (a logo, a signature, a
 * stamp).
 */
const DRAWN_PAGE_MAX_RASTER = 0.5;

/** In order: each is told the evidence of those before it (fonts leaves their rows alone). */
const PAGE_DETECTORS: Array<[DetectorName, (pages: PageContent[], earlier: Evidence[]) => DetectorResult]> = [
  [PDF_ANNOTATIONS_DETECTOR, detectAnnotationOverlay],
  [PDF_OVERLAY_DETECTOR, detectTextOverlay],
  [PDF_FONTS_DETECTOR, detectFontInconsistency],
];

/**
 * mupdf bounds what a page may nest (graphics states, forms, arrays) and stops drawing past
 * it; a first page it cannot draw is one the sidecar cannot render either, so the document
 * is refused here with the reason rather than failing the analysis.
 */
const thumbnailOf = (doc: Parameters<typeof renderFirstPage>[0], pageCount: number): PageImage | undefined => {
  try {
    return renderFirstPage(doc, pageCount);
  } catch (cause) {
    throw new AppError(
      "UNSUPPORTED_FORMAT",
      "The PDF's first page could not be drawn: its content nests deeper or is larger than the renderer's limits",
      { cause },
    );
  }
};

export const inspectPdf = async (bytes: Uint8Array, limits: AnalysisLimits, budget: Budget): Promise<PdfInspection> => {
  const { doc, pageCount, encrypted, repaired } = openPdf(bytes);
  try {
    const thumbnail = thumbnailOf(doc, pageCount);
    const scanned = Math.min(pageCount, limits.maxPdfPages);
    const detectors: DetectorResult[] = [
      await runDetector(PDF_REVISIONS_DETECTOR, () => {
        const r = detectRevisions(doc, bytes, scanned);
        return { ...r, facts: { ...r.facts, repaired } };
      }),
      await runDetector(PDF_METADATA_DETECTOR, () => detectPdfMetadata(doc)),
      await runDetector(PDF_ACTIVE_CONTENT_DETECTOR, () => detectActiveContent(doc, scanned)),
    ];
    if (encrypted) {
      for (const name of [...PAGE_DETECTORS.map(([n]) => n), PDF_TEXT_OPERATORS_DETECTOR] as DetectorName[]) {
        detectors.push({ detector: name, evidence: [], facts: { skipped: "encrypted" }, coverage: 0 });
      }
      return { detectors, pageCount, ...(thumbnail ? { thumbnail } : {}), text: { pages: [] }, drawnPages: [] };
    }
    let pages: PageContent[] = [];
    const read = await runDetector(PDF_PAGES_DETECTOR, () => {
      pages = readPages(doc, pageCount, limits.maxPdfPages, budget).pages;
      return {
        detector: PDF_PAGES_DETECTOR,
        evidence: [],
        facts: { pages: pageCount, read: pages.length },
        coverage: 1,
      };
    });
    // Pages left unread (page limit, time budget) lower what the page detectors saw.
    const seen = pageCount === 0 ? 0 : pages.length / pageCount;
    const earlier: Evidence[] = [];
    for (const [name, detect] of PAGE_DETECTORS) {
      const r = read.status === "failed" ? read : await runDetector(name, () => detect(pages, earlier));
      earlier.push(...r.evidence);
      const unread = pageCount - pages.length;
      detectors.push({
        ...r,
        detector: name,
        facts: unread > 0 ? { ...r.facts, unreadPages: unread } : r.facts,
        coverage: r.coverage * seen,
      });
    }
    // Reads the content streams themselves (how strings are written), page by page.
    detectors.push(
      await runDetector(PDF_TEXT_OPERATORS_DETECTOR, () => detectTextOperators(doc, pages, scanned, budget)),
    );
    const first = pages[0];
    return {
      detectors,
      pageCount,
      ...(first ? { firstPage: { width: first.width, height: first.height } } : {}),
      ...(thumbnail ? { thumbnail } : {}),
      text: { pages: toDocumentTextPages(pages) },
      drawnPages: pages.filter((p) => rasterShare(p) < DRAWN_PAGE_MAX_RASTER).map((p) => p.page - 1),
    };
  } finally {
    doc.destroy();
  }
};
