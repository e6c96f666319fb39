// The text the content checks read, one source per page: the PDF's own text layer where
// the page has one (exact characters), the sidecar's OCR lines otherwise (scans, photos,
// images). Every box is put in the pixels of the page as the sidecar analysed it, so all
// evidence of a page shares one space whatever found it.
import type { SidecarAnalysis } from "../sidecar-client/result.ts";
import type { DocumentText, TextPage } from "./content/text.ts";
import type { Box, DetectorResult } from "./report.ts";

/**
 * Analysed pixels per source unit (PDF point, image pixel) of a page; past the sidecar's page
 * limit, its first page's.
 */
const sourceScaleOf =
  (analysis: SidecarAnalysis) =>
  (page: number): number =>
    (analysis.pages.find((p) => p.index === page - 1) ?? analysis.pages[0])?.scale ?? 1;

const scaleBox = (box: Box, scale: number): Box => [
  Math.round(box[0] * scale),
  Math.round(box[1] * scale),
  Math.round(box[2] * scale),
  Math.round(box[3] * scale),
];

/**
 * How far a detected line falls per pixel to the right: the mean of its rectangle's top and
 * bottom edges (corners clockwise from top-left); nothing from a sidecar that sent no corners.
 */
function slopeOf(polygon: readonly (readonly [number, number])[]): { slope?: number } {
  const [topLeft, topRight, bottomRight, bottomLeft] = polygon;
  if (polygon.length !== 4 || !topLeft || !topRight || !bottomRight || !bottomLeft) return {};
  const run = topRight[0] - topLeft[0] + (bottomRight[0] - bottomLeft[0]);
  const rise = topRight[1] - topLeft[1] + (bottomRight[1] - bottomLeft[1]);
  return run > 0 ? { slope: rise / run } : {};
}

export interface MergedText {
  text: DocumentText;
  /** Per page (1-based), where its text came from. */
  sources: Record<number, "pdf" | "ocr">;
}

export function mergeText(pdfText: DocumentText, analysis: SidecarAnalysis): MergedText {
  const scaleOf = sourceScaleOf(analysis);
  const sources: Record<number, "pdf" | "ocr"> = {};
  const layer = new Map(pdfText.pages.filter((p) => p.lines.some((l) => l.text.trim() !== "")).map((p) => [p.page, p]));
  const pages: TextPage[] = analysis.pages.map((page) => {
    const number = page.index + 1;
    const pdf = layer.get(number);
    if (pdf) {
      sources[number] = "pdf";
      return {
        page: number,
        width: page.width,
        height: page.height,
        lines: pdf.lines.map((l) => ({ ...l, box: scaleBox(l.box, page.scale) })),
      };
    }
    sources[number] = "ocr";
    const lines = page.lines.map((l) => ({
      text: l.text,
      box: l.box,
      confidence: l.confidence,
      source: "ocr" as const,
      characters: l.characters,
      ...slopeOf(l.polygon),
    }));
    return { page: number, width: page.width, height: page.height, lines };
  });
  // Pages past the sidecar's page limit still have their text layer.
  for (const [number, pdf] of layer) {
    if (sources[number]) continue;
    const scale = scaleOf(number);
    sources[number] = "pdf";
    pages.push({
      page: number,
      width: Math.round(pdf.width * scale),
      height: Math.round(pdf.height * scale),
      lines: pdf.lines.map((l) => ({ ...l, box: scaleBox(l.box, scale) })),
    });
  }
  return { text: { pages: pages.sort((a, b) => a.page - b.page) }, sources };
}

/**
 * The boxes of structure evidence (PDF points, image pixels) in the analysed pixels of their page.
 */
export function evidenceInPagePixels(results: DetectorResult[], analysis: SidecarAnalysis): DetectorResult[] {
  const scaleOf = sourceScaleOf(analysis);
  return results.map((r) => ({
    ...r,
    evidence: r.evidence.map((e) =>
      e.box && e.page !== undefined ? { ...e, box: scaleBox(e.box, scaleOf(e.page)) } : e,
    ),
  }));
}
