// The glyphs of a retyped value, laid out exactly as the document's own template lays out that
// field (same font, size, anchor and letter spacing), drawn alone on a transparent canvas the
// size of the document: what a forger gets by typing in the matching font over the old value.
import { setText } from "../identity/template-fill.ts";
import { renderSvg } from "../render/svg.ts";

function element(svg: string, id: string): string {
  const open = svg.search(new RegExp(`<text\\b[^>]*\\bid="${id}"`));
  if (open < 0) throw new Error(`no text element ${id}`);
  return svg.slice(open, svg.indexOf("</text>", open) + "</text>".length);
}

/**
 * RGBA PNG, `width` pixels wide like the rendered document, holding only field `id` showing
 * `value`.
 */
export function textLayer(svg: string, id: string, value: string, width: number): Buffer {
  const filled = setText(svg, id, value);
  const root = filled.match(/<svg\b[^>]*>/)?.[0];
  if (!root) throw new Error("not an SVG");
  const styles = [...filled.matchAll(/<style\b[^>]*>[\s\S]*?<\/style>/g)].map((m) => m[0]).join("");
  return renderSvg(`${root}<defs>${styles}</defs>${element(filled, id)}</svg>`, width).png;
}
