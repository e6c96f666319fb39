// One pass over each page that the font, overlay and annotation detectors share: the
// page's own text lines with their fonts (structured text of the content stream only,
// annotations excluded), every glyph and opaque fill in drawing order, the annotations,
// and the fonts its resources declare. Recording is bounded per page.
import { mupdf } from "../../pdf/mupdf.ts";
import type { Box } from "../report.ts";
import type { Budget } from "../detector.ts";
import type { TextPage } from "../content/text.ts";
import { clipRect, solidParts } from "./fill-shapes.ts";
import { child, each, nameAt, resolved } from "./objects.ts";
import { boxOfRect, intersectionArea, rectArea, type Rect } from "./rect.ts";

interface TextRun {
  font: string;
  size: number;
  text: string;
}

export interface PageLine {
  box: Box;
  text: string;
  runs: TextRun[];
}

export interface DrawnGlyph {
  rect: Rect;
  unicode: number;
  /** Index of the drawing operation (fillText call) that drew it. */
  op: number;
}

interface DrawnFill {
  rect: Rect;
  op: number;
  kind: "path" | "image";
  /** Near-white and fully opaque: what white-out is made of. */
  white: boolean;
}

interface PageAnnotation {
  type: string;
  rect: Rect;
  hidden: boolean;
  hasAppearance: boolean;
}

export interface PageContent {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  lines: PageLine[];
  glyphs: DrawnGlyph[];
  fills: DrawnFill[];
  annotations: PageAnnotation[];
  /** BaseFont names the page's resources declare, subset tags kept. */
  resourceFonts: string[];
  /**
   * Those of them the file does not carry (no font program in their descriptor, not Type3):
   * the reader substitutes a system font for them.
   */
  unembeddedFonts: string[];
  /**
   * Fonts whose every glyph on the page is invisible (render mode 3): an OCR tool's text
   * layer over a scan or a stamp, there to be searched, never seen.
   */
  invisibleFonts: string[];
  /** Recording stopped at the per-page bound. */
  truncated: boolean;
}

export interface ReadPagesResult {
  pages: PageContent[];
  /** Pages the document has; pages.length may be fewer (page limit or time budget). */
  pageCount: number;
}

const MAX_GLYPHS_PER_PAGE = 20_000;
const MAX_FILLS_PER_PAGE = 5_000;
const MAX_LINES_PER_PAGE = 2_000;
const MAX_FONTS_PER_PAGE = 200;

const STROKE = new mupdf.StrokeState({ lineCap: "Butt", lineJoin: "Miter", lineWidth: 0, miterLimit: 10 });

const isWhite = (color: number[], alpha: number): boolean => {
  if (alpha < 0.99) return false;
  if (color.length === 4) return color.every((c) => c <= 0.04);
  return color.length > 0 && color.every((c) => c >= 0.96);
};

const rectOf = (r: number[]): Rect => [r[0]!, r[1]!, r[2]!, r[3]!];

const fontsOf = (text: mupdf.Text, into: Set<string>): void => {
  text.walk({
    showGlyph(font) {
      if (into.size < MAX_FONTS_PER_PAGE) into.add(font.getName());
    },
  });
};

/**
 * A clip no cover can be seen through whole: a glyph or image-mask clip paints shapes, not a
 * rectangle.
 */
const SHAPED_CLIP: Rect = [0, 0, 0, 0];

const recordDrawing = (page: mupdf.Page, out: PageContent): void => {
  let op = 0;
  const shown = new Set<string>();
  const hidden = new Set<string>();
  // What is painted: inside the current clip, outside mask definitions (drawn into the
  // mask, never onto the page), and opaque only in a normal, opaque group.
  const clips: Rect[] = [];
  // Per open group, whether it paints opaquely; `translucent` counts the open ones that do not.
  const groups: boolean[] = [];
  let translucent = 0;
  let masks = 0;
  const clip = (): Rect | null => clips[clips.length - 1] ?? null;
  const pushClip = (rect: Rect | null) => clips.push(rect ? (clipRect(rect, clip()) ?? SHAPED_CLIP) : SHAPED_CLIP);
  const opaqueGroups = () => translucent === 0;
  const addFill = (rect: Rect, kind: DrawnFill["kind"], white: boolean) => {
    if (masks > 0) return;
    const visible = clipRect(rect, clip());
    if (!visible) return;
    if (out.fills.length >= MAX_FILLS_PER_PAGE) {
      out.truncated = true;
      return;
    }
    out.fills.push({ rect: visible, op, kind, white: white && opaqueGroups() });
  };
  const device = new mupdf.Device({
    ignoreText(text) {
      fontsOf(text, hidden);
    },
    strokeText(text) {
      fontsOf(text, shown);
    },
    clipText(text) {
      fontsOf(text, shown);
      pushClip(null);
    },
    clipStrokeText() {
      pushClip(null);
    },
    clipImageMask() {
      pushClip(null);
    },
    clipPath(path, _evenOdd, ctm) {
      pushClip(rectOf(path.getBounds(STROKE, ctm)));
    },
    clipStrokePath(path, stroke, ctm) {
      pushClip(rectOf(path.getBounds(stroke, ctm)));
    },
    popClip() {
      clips.pop();
    },
    beginMask() {
      masks++;
    },
    endMask() {
      masks = Math.max(0, masks - 1);
    },
    beginGroup(_area, _cs, _isolated, _knockout, blendmode, alpha) {
      const opaque = blendmode === "Normal" && alpha >= 0.99;
      groups.push(opaque);
      if (!opaque) translucent++;
    },
    endGroup() {
      if (groups.pop() === false) translucent--;
    },
    fillText(text, ctm) {
      op++;
      fontsOf(text, shown);
      if (out.glyphs.length >= MAX_GLYPHS_PER_PAGE) {
        out.truncated = true;
        return;
      }
      text.walk({
        showGlyph(font, trm, glyph, unicode, wmode) {
          if (out.glyphs.length >= MAX_GLYPHS_PER_PAGE) {
            out.truncated = true;
            return;
          }
          const advance = font.advanceGlyph(glyph, wmode) || 0.5;
          const m = mupdf.Matrix.concat(trm, ctm);
          out.glyphs.push({ rect: rectOf(mupdf.Rect.transform([0, -0.2, advance, 0.8], m)), unicode, op });
        },
      });
    },
    fillPath(path, _evenOdd, ctm, _cs, color, alpha) {
      op++;
      const white = isWhite(color, alpha);
      for (const part of solidParts(path, ctm)) addFill(part, "path", white);
    },
    fillImage(_image, ctm, alpha) {
      op++;
      if (alpha < 0.99 || !opaqueGroups()) return;
      addFill(rectOf(mupdf.Rect.transform([0, 0, 1, 1], ctm)), "image", false);
    },
  });
  try {
    page.runPageContents(device, mupdf.Matrix.identity);
  } finally {
    device.close();
    device.destroy();
  }
  out.invisibleFonts = [...hidden].filter((f) => !shown.has(f));
};

const recordLines = (page: mupdf.Page, bounds: Rect, out: PageContent): void => {
  const list = new mupdf.DisplayList(bounds);
  const listDevice = new mupdf.DisplayListDevice(list);
  try {
    page.runPageContents(listDevice, mupdf.Matrix.identity);
  } finally {
    listDevice.close();
  }
  const stext = list.toStructuredText("preserve-whitespace");
  let current: PageLine | undefined;
  stext.walk({
    beginLine(bbox) {
      current = { box: boxOfRect(rectOf(bbox)), text: "", runs: [] };
    },
    onChar(c, _origin, font, size) {
      if (!current) return;
      current.text += c;
      const name = font.getName();
      const last = current.runs.at(-1);
      const rounded = Math.round(size * 10) / 10;
      if (last && last.font === name && last.size === rounded) last.text += c;
      else current.runs.push({ font: name, size: rounded, text: c });
    },
    endLine() {
      if (current?.text.trim() && out.lines.length < MAX_LINES_PER_PAGE) out.lines.push(current);
      current = undefined;
    },
  });
  stext.destroy();
  list.destroy();
};

const recordAnnotations = (page: mupdf.PDFPage, out: PageContent): void => {
  const annots: mupdf.PDFAnnotation[] = [...page.getAnnotations(), ...page.getWidgets()];
  for (const a of annots.slice(0, 500)) {
    const flags = a.getFlags();
    out.annotations.push({
      type: a.getType(),
      rect: rectOf(a.getBounds()),
      hidden: (flags & (mupdf.PDFAnnotation.IS_HIDDEN | mupdf.PDFAnnotation.IS_NO_VIEW)) !== 0,
      hasAppearance: !child(a.getObject(), "AP").isNull(),
    });
  }
};

/** Whether a font dictionary carries its font program (a composite font in its descendant). */
const carriesProgram = (font: mupdf.PDFObject): boolean => {
  if (nameAt(font, "Subtype") === "Type3") return true;
  const descendant = child(font, "DescendantFonts");
  const descriptor = child(
    descendant.isArray() && descendant.length > 0 ? resolved(descendant.get(0)) : font,
    "FontDescriptor",
  );
  return ["FontFile", "FontFile2", "FontFile3"].some((key) => !child(descriptor, key).isNull());
};

/** The page's fonts by BaseFont name, each with whether the file carries it. */
const fontNames = (resources: mupdf.PDFObject, out: Map<string, boolean>, depth: number): void => {
  if (resources.isNull() || depth > 2 || out.size >= MAX_FONTS_PER_PAGE) return;
  each(child(resources, "Font"), (font) => {
    const base = nameAt(font, "BaseFont");
    if (base && out.size < MAX_FONTS_PER_PAGE) out.set(base, (out.get(base) ?? false) || carriesProgram(font));
  });
  each(
    child(resources, "XObject"),
    (xobj) => {
      if (nameAt(xobj, "Subtype") === "Form") fontNames(child(xobj, "Resources"), out, depth + 1);
    },
    100,
  );
};

export const readPages = (
  doc: mupdf.PDFDocument,
  pageCount: number,
  maxPages: number,
  budget: Budget,
): ReadPagesResult => {
  const pages: PageContent[] = [];
  for (let i = 0; i < Math.min(pageCount, maxPages) && !budget.expired(); i++) {
    const page = doc.loadPage(i);
    try {
      const bounds = rectOf(page.getBounds());
      const content: PageContent = {
        page: i + 1,
        width: bounds[2] - bounds[0],
        height: bounds[3] - bounds[1],
        lines: [],
        glyphs: [],
        fills: [],
        annotations: [],
        resourceFonts: [],
        unembeddedFonts: [],
        invisibleFonts: [],
        truncated: false,
      };
      recordLines(page, bounds, content);
      recordDrawing(page, content);
      recordAnnotations(page, content);
      const fonts = new Map<string, boolean>();
      fontNames(page.getObject().getInheritable("Resources"), fonts, 0);
      content.resourceFonts = [...fonts.keys()];
      content.unembeddedFonts = [...fonts].filter(([, embedded]) => !embedded).map(([name]) => name);
      pages.push(content);
    } finally {
      page.destroy();
    }
  }
  return { pages, pageCount };
};

/** The pages' text layer in the shape the content rules read. */
export const toDocumentTextPages = (pages: PageContent[]): TextPage[] =>
  pages.map((p) => ({
    page: p.page,
    width: p.width,
    height: p.height,
    lines: p.lines.map((l) => ({ text: l.text, box: l.box, confidence: 1, source: "pdf" as const })),
  }));

/**
 * Share of a page that raster images cover (overlaps counted once per image, capped at 1):
 * near 1 for a scan or photo wrapped in a PDF, near 0 for a page drawn as text and paths.
 */
export const rasterShare = (page: PageContent): number => {
  const bounds: Rect = [0, 0, page.width, page.height];
  const covered = page.fills
    .filter((f) => f.kind === "image")
    .reduce((sum, f) => sum + intersectionArea(f.rect, bounds), 0);
  return Math.min(1, covered / Math.max(1, rectArea(bounds)));
};
