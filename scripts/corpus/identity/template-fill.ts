// Fills a DocXPand SVG template: text placeholders by element id, portraits by image id,
// and measures where each filled field lands so forgeries can be placed and labelled.
import { readFileSync } from "node:fs";
import { type TemplateId, templateSvgPath } from "../assets.ts";
import { aliasFontFamilies, type Box, escapeXml, svgContentBox } from "../render/svg.ts";

const cache = new Map<TemplateId, string>();

export function loadTemplate(t: TemplateId): string {
  let svg = cache.get(t);
  if (!svg) {
    svg = aliasFontFamilies(readFileSync(templateSvgPath(t), "utf8"));
    cache.set(t, svg);
  }
  return svg;
}

function textElement(svg: string, id: string): { start: number; end: number } | undefined {
  const open = svg.search(new RegExp(`<text\\b[^>]*\\bid="${id}"`));
  if (open < 0) return undefined;
  const close = svg.indexOf("</text>", open);
  return { start: open, end: close + "</text>".length };
}

/** Replaces the text of the last text run inside element `id`. */
export function setText(svg: string, id: string, value: string): string {
  const el = textElement(svg, id);
  if (!el) throw new Error(`template has no text element ${id}`);
  const body = svg.slice(el.start, el.end);
  const runs = [...body.matchAll(/(<tspan\b[^>]*>)([^<]*)(<\/tspan>)/g)];
  const last = runs[runs.length - 1];
  let filled: string;
  if (last && last.index !== undefined) {
    filled = body.slice(0, last.index) + last[1] + escapeXml(value) + last[3] + body.slice(last.index + last[0].length);
  } else {
    filled = body.replace(/>([^<]*)<\/text>$/, `>${escapeXml(value)}</text>`);
  }
  return svg.slice(0, el.start) + filled + svg.slice(el.end);
}

export function setImage(svg: string, id: string, dataUri: string): string {
  const re = new RegExp(`(<image\\b[^>]*\\bid="${id}"[^>]*?\\b(?:xlink:href|href)=")[^"]*"`);
  if (!re.test(svg)) throw new Error(`template has no image ${id}`);
  return svg.replace(re, `$1${dataUri}"`);
}

function rootOpenTag(svg: string): string {
  const m = svg.match(/<svg\b[^>]*>/);
  if (!m) throw new Error("not an SVG");
  return m[0];
}

function viewBox(svg: string): { x: number; y: number; w: number; h: number } {
  const m = rootOpenTag(svg).match(/viewBox="([^"]+)"/);
  if (!m?.[1]) throw new Error("template has no viewBox");
  const [x, y, w, h] = m[1]
    .trim()
    .split(/[\s,]+/)
    .map(Number) as [number, number, number, number];
  return { x, y, w, h };
}

/**
 * Pixel box of element `id` in a rendering `widthPx` wide: the element alone (with the
 * template's styles) is laid out by resvg, which knows the fonts' real metrics.
 */
export function elementBox(svg: string, id: string, widthPx: number): Box | undefined {
  const el = textElement(svg, id);
  let element: string | undefined = el ? svg.slice(el.start, el.end) : undefined;
  // Only the opening tag of an <image>, made self-closing: its embedded data stays in `svg`.
  if (!element) element = svg.match(new RegExp(`<image\\b[^>]*\\bid="${id}"[^>]*>`))?.[0]?.replace(/\/?>$/, "/>");
  if (!element) return undefined;
  const styles = [...svg.matchAll(/<style\b[^>]*>[\s\S]*?<\/style>/g)].map((m) => m[0]).join("");
  const mini = `${rootOpenTag(svg)}<defs>${styles}</defs>${element}</svg>`;
  const box = svgContentBox(mini);
  if (!box) return undefined;
  const vb = viewBox(svg);
  const k = widthPx / vb.w;
  return {
    x: Math.floor((box.x - vb.x) * k),
    y: Math.floor((box.y - vb.y) * k),
    w: Math.ceil(box.w * k),
    h: Math.ceil(box.h * k),
  };
}

/**
 * Pixel cell of each character of text element `id` showing `value`: from the right edge of
 * the ink of the text before it to the right edge of the ink up to it, as laid out by resvg
 * with the template's own (often proportional) font.
 */
export function glyphCells(svg: string, id: string, value: string, widthPx: number): Box[] {
  const full = elementBox(svg, id, widthPx);
  if (!full) throw new Error(`template has no element ${id}`);
  const cells: Box[] = [];
  let left = full.x;
  for (let i = 0; i < value.length; i++) {
    const upTo = i === value.length - 1 ? full : elementBox(setText(svg, id, value.slice(0, i + 1)), id, widthPx);
    const right = upTo ? upTo.x + upTo.w : left;
    cells.push({ x: left, y: full.y, w: Math.max(1, right - left), h: full.h });
    left = Math.max(left, right);
  }
  return cells;
}
