// Text hidden or replaced in the drawing itself: an opaque white rectangle or an image
// painted over text drawn earlier (white-out), usually with new text typed on top, or
// new glyphs painted over old ones. Drawing order is what tells a cover from a table
// background: backgrounds come before the text they sit under.
import type { DetectorResult, Evidence } from "../report.ts";
import type { DrawnGlyph, PageContent } from "./page-content.ts";
import { boxOfRect, intersectionArea, rectArea, type Rect } from "./rect.ts";
import type { DetectorName } from "../manifest.ts";

export const PDF_OVERLAY_DETECTOR = "pdf-text-overlay" satisfies DetectorName;

/** A glyph is hidden when this share of it lies under a later cover. */
const HIDDEN_SHARE = 0.6;
/** Fewer hidden glyphs than this are a stray overlap, not a cover. */
const MIN_GLYPHS = 3;
/** Covers larger than this share of the page are page backgrounds or scans. */
const MAX_COVER_SHARE = 0.5;

/** Rectangle comparisons allowed per page: a hostile page cannot make this quadratic. */
const MAX_CHECKS_PER_PAGE = 5_000_000;

const visible = (g: DrawnGlyph) => g.unicode > 32;

interface Work {
  checks: number;
  exhausted: boolean;
}

const spend = (work: Work, n: number): boolean => {
  work.checks += n;
  if (work.checks > MAX_CHECKS_PER_PAGE) work.exhausted = true;
  return !work.exhausted;
};

const union = (rects: Rect[]): Rect =>
  rects.reduce<Rect>(
    (u, r) => [Math.min(u[0], r[0]), Math.min(u[1], r[1]), Math.max(u[2], r[2]), Math.max(u[3], r[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  );

/** The characters of glyphs in drawing order, spaces dropped: what a reader would see. */
const textOf = (glyphs: DrawnGlyph[]): string =>
  [...glyphs]
    .sort((a, b) => a.op - b.op || a.rect[0] - b.rect[0])
    .map((g) => String.fromCodePoint(g.unicode))
    .join("")
    .replace(/\s+/g, "");

/**
 * Strength of a cover. Text hidden and different text typed over it is a value replaced,
 * the white-out-and-retype edit itself; the same text drawn again is a redraw some
 * generators make, and a cover with nothing typed on it may be a redaction.
 */
const STRENGTH = { replaced: 0.85, redrawn: 0.45, covered: 0.45 } as const;

const coversEvidence = (page: PageContent, hidden: Set<DrawnGlyph>, work: Work): Evidence[] => {
  const evidence: Evidence[] = [];
  const pageArea = page.width * page.height;
  for (const fill of page.fills) {
    if (!(fill.white || fill.kind === "image")) continue;
    if (rectArea(fill.rect) > pageArea * MAX_COVER_SHARE) continue;
    if (!spend(work, page.glyphs.length * 2)) break;
    const under = page.glyphs.filter(
      (g) => g.op < fill.op && visible(g) && intersectionArea(g.rect, fill.rect) >= HIDDEN_SHARE * rectArea(g.rect),
    );
    if (under.length < MIN_GLYPHS) continue;
    for (const g of under) hidden.add(g);
    const over = page.glyphs.filter(
      (g) => g.op > fill.op && visible(g) && intersectionArea(g.rect, fill.rect) >= HIDDEN_SHARE * rectArea(g.rect),
    );
    const retyped = over.length >= MIN_GLYPHS;
    const replaced = retyped && textOf(over) !== textOf(under);
    const cover = fill.kind === "image" ? "An image" : "A white fill";
    const typed = !retyped
      ? ""
      : replaced
        ? `, with ${over.length} different characters typed on top`
        : `, with the same ${over.length} characters drawn again on top`;
    evidence.push({
      flag: "pdf_text_overlay",
      detector: PDF_OVERLAY_DETECTOR,
      strength: replaced ? STRENGTH.replaced : retyped ? STRENGTH.redrawn : STRENGTH.covered,
      message: `${cover} drawn over ${under.length} characters of earlier text${typed}`,
      page: page.page,
      box: boxOfRect(union(under.map((g) => g.rect))),
      measured: under.length,
      threshold: MIN_GLYPHS,
    });
  }
  return evidence;
};

/** Later glyphs on top of earlier, different glyphs (not fake-bold repeats). */
const overstrikeEvidence = (page: PageContent, hidden: Set<DrawnGlyph>, work: Work): Evidence[] => {
  const rows = new Map<number, DrawnGlyph[]>();
  for (const g of page.glyphs) {
    if (!visible(g) || hidden.has(g)) continue;
    const key = Math.round((g.rect[1] + g.rect[3]) / 8);
    const row = rows.get(key) ?? [];
    row.push(g);
    rows.set(key, row);
  }
  const struck: Rect[] = [];
  for (const [key, row] of rows) {
    const candidates = [...row, ...(rows.get(key + 1) ?? [])];
    if (!spend(work, row.length * candidates.length)) break;
    for (const a of row) {
      for (const b of candidates) {
        if (b.op <= a.op || b.unicode === a.unicode) continue;
        const inter = intersectionArea(a.rect, b.rect);
        if (inter >= 0.5 * Math.min(rectArea(a.rect), rectArea(b.rect))) {
          struck.push(a.rect);
          break;
        }
      }
    }
  }
  if (struck.length < MIN_GLYPHS) return [];
  // Glyphs stacked on one spot (a tick over a box, an accent, a bullet redrawn) are not a
  // value overprinted: that spans as many positions as it has characters. Measured: a
  // utility bill (real set r0082) stacks three glyphs in a 13-point square.
  const widest = Math.max(...struck.map((r) => r[2] - r[0]));
  const span = union(struck);
  if (span[2] - span[0] < 2 * widest) return [];
  return [
    {
      flag: "pdf_text_overlay",
      detector: PDF_OVERLAY_DETECTOR,
      strength: 0.5,
      message: `${struck.length} characters are overprinted by different characters drawn later`,
      page: page.page,
      box: boxOfRect(union(struck)),
      measured: struck.length,
      threshold: MIN_GLYPHS,
    },
  ];
};

export const detectTextOverlay = (pages: PageContent[]): DetectorResult => {
  const evidence: Evidence[] = [];
  let glyphs = 0;
  const partial: number[] = [];
  for (const page of pages) {
    glyphs += page.glyphs.length;
    const hidden = new Set<DrawnGlyph>();
    const work: Work = { checks: 0, exhausted: false };
    evidence.push(...coversEvidence(page, hidden, work), ...overstrikeEvidence(page, hidden, work));
    if (page.truncated || work.exhausted) partial.push(page.page);
  }
  return {
    detector: PDF_OVERLAY_DETECTOR,
    evidence,
    facts: { glyphs, truncatedPages: partial },
    // A page without drawn text (a scan) gives this detector nothing to look at; pages
    // cut short at a bound were only partly seen.
    coverage: pages.length === 0 ? 0 : glyphs === 0 ? 0.1 : 1 - (0.5 * partial.length) / pages.length,
  };
};
