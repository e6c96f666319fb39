// Annotations laid over the page's own text: a FreeText box, a filled Square, a Stamp or
// a form field placed on a printed amount shows something else than the page does.
import type { DetectorResult, Evidence } from "../report.ts";
import type { PageContent } from "./page-content.ts";
import { boxOfRect, intersectionArea, rectArea, rectOfBox } from "./rect.ts";
import type { DetectorName } from "../manifest.ts";
import { COVER_THRESHOLD } from "../thresholds.ts";

export const PDF_ANNOTATIONS_DETECTOR = "pdf-annotation-overlay" satisfies DetectorName;

const STRENGTH: Record<string, number> = { FreeText: 0.5, Square: 0.5, Stamp: 0.45, Redact: 0.4, Widget: 0.3 };

export const detectAnnotationOverlay = (pages: PageContent[]): DetectorResult => {
  const evidence: Evidence[] = [];
  const counts: Record<string, number> = {};
  for (const page of pages) {
    for (const annot of page.annotations) {
      counts[annot.type] = (counts[annot.type] ?? 0) + 1;
      const strength = STRENGTH[annot.type];
      if (strength === undefined || annot.hidden) continue;
      if (annot.type === "Widget" && !annot.hasAppearance) continue;
      let covered = 0;
      let best = 0;
      for (const line of page.lines) {
        const r = rectOfBox(line.box);
        const share = intersectionArea(annot.rect, r) / Math.max(1e-6, rectArea(r));
        if (share >= COVER_THRESHOLD) covered++;
        best = Math.max(best, share);
      }
      if (covered === 0) continue;
      evidence.push({
        flag: "pdf_annotation_overlay",
        detector: PDF_ANNOTATIONS_DETECTOR,
        strength,
        message: `${annot.type} annotation covers ${covered} line${covered > 1 ? "s" : ""} of page text`,
        page: page.page,
        box: boxOfRect(annot.rect),
        measured: Number(best.toFixed(2)),
        threshold: COVER_THRESHOLD,
      });
    }
  }
  return {
    detector: PDF_ANNOTATIONS_DETECTOR,
    evidence,
    facts: { annotations: counts },
    coverage: pages.length ? 1 : 0,
  };
};
