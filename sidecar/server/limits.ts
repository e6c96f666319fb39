// What one document may cost the sidecar. Every input is hostile: bytes are bounded while they
// arrive, pixels before they are decoded, pages and rendering time before and while rendering.

export interface DocumentLimits {
  /** Bytes one document stream may carry (10 MB = 10,000,000, as the API contract counts bytes). */
  maxDocumentBytes: number;
  /** Pixels an image may declare; larger ones are refused before decoding (decompression bombs). */
  maxImagePixels: number;
  /** Pixels of one analysed page; larger images and renders are scaled down to fit. */
  maxPagePixels: number;
  /** Longest side of one analysed page, in pixels; larger ones are scaled down to fit. */
  maxPageSide: number;
  /** PDF pages analysed; the response still says how many the document has. */
  maxPages: number;
  /** Resolution PDF pages are rendered at (before the pixel limits apply). */
  pdfDpi: number;
  /** Time opening and rendering one PDF may take, all pages together. */
  renderBudgetMs: number;
  /** Time decoding one image may take. */
  decodeBudgetMs: number;
}

export const DEFAULT_LIMITS: DocumentLimits = {
  maxDocumentBytes: 10_000_000,
  // The same budget intake applies (src/intake/validate-image.ts): bigger than any phone photo.
  maxImagePixels: 50_000_000,
  // A4 at 300 dpi is 8.7 MP; 20 MP keeps phone photos at full resolution for pixel forensics.
  maxPagePixels: 20_000_000,
  maxPageSide: 8_000,
  maxPages: 10,
  pdfDpi: 150,
  renderBudgetMs: 30_000,
  decodeBudgetMs: 10_000,
};

/**
 * The scale (at most 1) that brings width x height inside both pixel limits, even when the
 * scaled sides are rounded up to whole pixels (as renderers do).
 */
export function fitScale(
  width: number,
  height: number,
  limits: Pick<DocumentLimits, "maxPagePixels" | "maxPageSide">,
): number {
  let scale = Math.min(
    1,
    Math.sqrt(limits.maxPagePixels / (width * height)),
    limits.maxPageSide / Math.max(width, height),
  );
  const fits = () =>
    Math.ceil(width * scale) * Math.ceil(height * scale) <= limits.maxPagePixels &&
    Math.ceil(Math.max(width, height) * scale) <= limits.maxPageSide;
  while (scale < 1 && !fits()) scale *= 0.999;
  return scale;
}
