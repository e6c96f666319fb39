// SVG to pixels with resvg and only the committed fonts (no system fontconfig), so the
// same SVG gives the same pixels on every machine.
import { Resvg } from "@resvg/resvg-js";
import { ALL_FONT_FILES } from "../assets.ts";

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const FONT_OPTIONS = {
  fontFiles: [...ALL_FONT_FILES],
  loadSystemFonts: false,
  defaultFontFamily: "Open Sans",
};

// The templates name their fonts by PostScript-ish family names that differ from the
// family names inside the committed font files.
const FAMILY_ALIASES: Array<[RegExp, string]> = [
  [/'?OCRB'?/g, "'OcrB'"],
  [/'Space Grotesk'/g, "'Space Grotesk Light'"],
];

export function aliasFontFamilies(svg: string): string {
  let out = svg;
  for (const [from, to] of FAMILY_ALIASES) out = out.replace(from, to);
  return out;
}

export function renderSvg(svg: string, width: number): { png: Buffer; width: number; height: number } {
  const r = new Resvg(svg, {
    font: FONT_OPTIONS,
    fitTo: { mode: "width", value: width },
    shapeRendering: 2,
    textRendering: 1,
  });
  const img = r.render();
  return { png: img.asPng(), width: img.width, height: img.height };
}

/** Bounding box of what `svg` draws, in its own user units (viewBox coordinates). */
export function svgContentBox(svg: string): Box | undefined {
  const bbox = new Resvg(svg, { font: FONT_OPTIONS }).getBBox();
  return bbox ? { x: bbox.x, y: bbox.y, w: bbox.width, h: bbox.height } : undefined;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
