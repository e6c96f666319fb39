// Forgeries of a finished PDF that no edit.ts helper can make: LibreOffice and Chromium
// write subset fonts with their own glyph codes, so strings cannot be rewritten in the
// content stream as they are in pdf-lib's and PDFKit's. Here a value is found where mupdf
// reads it, redacted out of the content (as an editor's "edit text" removes the glyphs) and
// typed again in the editor's own font.
import type * as mupdf from "mupdf";
import type { Box } from "../render/svg.ts";
import { overlayText } from "../pdf/edit.ts";

export interface FoundText {
  box: Box;
  size: number;
  /** Distance of the baseline from the top of the page, in points. */
  baseline: number;
}

interface Glyph {
  c: string;
  quad: mupdf.Quad;
  size: number;
  baselineY: number;
}

// A value is whole when no digit or separator continues it: 3.870,30 is not in 13.870,30.
const CONTINUES = /[\d.,]/;
/** No-break spaces (French thousands) as one space, character for character, so indexes hold. */
const plainSpaces = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

/** Every place `text` is drawn on the page, as a whole value, in reading order. */
export function findText(page: mupdf.Page, text: string): FoundText[] {
  if (text.length === 0) throw new Error("findText: nothing to find");
  const found: FoundText[] = [];
  let line: Glyph[] = [];
  const endLine = () => {
    const s = plainSpaces(line.map((g) => g.c).join(""));
    const needle = plainSpaces(text);
    for (let at = s.indexOf(needle); at >= 0; at = s.indexOf(needle, at + 1)) {
      if (CONTINUES.test(s[at - 1] ?? "") || CONTINUES.test(s[at + needle.length] ?? "")) continue;
      const glyphs = line.slice(at, at + text.length);
      const xs = glyphs.flatMap((g) => [g.quad[0], g.quad[2], g.quad[4], g.quad[6]]);
      const ys = glyphs.flatMap((g) => [g.quad[1], g.quad[3], g.quad[5], g.quad[7]]);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      found.push({
        box: { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y },
        size: glyphs[0]!.size,
        baseline: glyphs[0]!.baselineY,
      });
    }
    line = [];
  };
  page.toStructuredText("preserve-whitespace").walk({
    beginLine: () => (line = []),
    onChar: (c, origin, _font, size, quad) => line.push({ c, quad, size, baselineY: origin[1] }),
    endLine,
  });
  return found;
}

export function findOne(page: mupdf.Page, text: string): FoundText {
  const hit = findText(page, text)[0];
  if (!hit) throw new Error(`"${text}" is not on the page`);
  return hit;
}

/**
 * Removes the glyphs of `hit` from the page's content and draws `to` in their place, aligned
 * right for amounts. Returns the box the change covers.
 */
export async function retype(doc: mupdf.PDFDocument, hit: FoundText, to: string, alignRight: boolean): Promise<Box> {
  const page = doc.loadPage(0);
  const redact = page.createAnnotation("Redact");
  // Inset vertically so the lines above and below keep their glyphs.
  const inset = hit.box.h * 0.2;
  redact.setRect([hit.box.x, hit.box.y + inset, hit.box.x + hit.box.w, hit.box.y + hit.box.h - inset]);
  // No black box; images and line art untouched; glyphs removed.
  page.applyRedactions(false, 0, 0, 0);
  return overlayText(doc, 0, hit.box, hit.baseline, to, hit.size, alignRight ? hit.box.x + hit.box.w : undefined);
}
