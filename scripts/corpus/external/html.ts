// Finance documents as HTML pages, in three house styles unlike the in-house PDF renderers
// (other fonts, CSS tables, summary boxes): the source LibreOffice and Chromium turn into
// PDFs, as a bank's or payroll office's web export would.
import type { FinanceDocument } from "../finance/model.ts";
import { escapeXml } from "../render/svg.ts";

export const HTML_STYLES = ["ledger", "banded", "letter"] as const;
export type HtmlStyle = (typeof HTML_STYLES)[number];

// Fonts from fonts-dejavu, fonts-liberation and fonts-noto-core (install-tools.sh).
const CSS: Record<HtmlStyle, string> = {
  // Serif, every cell boxed, as a core-banking print view.
  ledger: `
    body { font-family: "DejaVu Serif", serif; font-size: 9pt; color: #111; }
    .head { border-bottom: 2px solid #333; padding-bottom: 6pt; }
    .issuer b { font-size: 14pt; }
    h1 { font-size: 12pt; letter-spacing: 1pt; }
    table.items { border-collapse: collapse; width: 100%; }
    table.items th, table.items td { border: 1px solid #777; padding: 2pt 4pt; }
    table.items th { background: #e4e4e4; }
    table.summary { margin-left: auto; border-collapse: collapse; margin-top: 8pt; }
    table.summary td { border: 1px solid #777; padding: 2pt 6pt; }`,
  // Sans, a coloured band and zebra rows, as a web banking export.
  banded: `
    body { font-family: "Liberation Sans", sans-serif; font-size: 8.5pt; color: #222; }
    .head { background: #235a3c; color: #fff; padding: 10pt; }
    .issuer b { font-size: 15pt; }
    h1 { font-size: 11pt; color: #235a3c; text-transform: uppercase; }
    table.items { border-collapse: collapse; width: 100%; }
    table.items th { border-bottom: 2px solid #235a3c; color: #235a3c; padding: 3pt; text-align: left; }
    table.items td { padding: 2.5pt 3pt; }
    table.items tr:nth-child(even) td { background: #eef4f0; }
    table.summary { margin-left: auto; width: 45%; margin-top: 10pt; border-top: 2px solid #235a3c; }
    table.summary td { padding: 2pt 3pt; }`,
  // Noto Sans, rules only between rows, as a letter; every header left-aligned, over
  // right-aligned amounts too, as many web exports set them.
  letter: `
    body { font-family: "Noto Sans", sans-serif; font-size: 8pt; color: #1c1c28; }
    .head { display: flex; justify-content: space-between; }
    .issuer b { font-size: 12pt; color: #7a2431; }
    h1 { font-size: 10pt; border-left: 4px solid #7a2431; padding-left: 6pt; }
    table.items { border-collapse: collapse; width: 100%; }
    table.items th { font-weight: 600; border-bottom: 1px solid #1c1c28; padding: 2pt; text-align: left; }
    table.items td { border-bottom: 0.5px solid #c9c9d2; padding: 2pt; }
    table.summary { margin-left: auto; margin-top: 8pt; }
    table.summary td { padding: 1.5pt 4pt; }
    table.summary tr:last-child td { font-weight: bold; border-top: 1px solid #1c1c28; }`,
};

const e = escapeXml;
const lines = (xs: string[]) => xs.map(e).join("<br>");

export function financeHtml(doc: FinanceDocument, style: HtmlStyle, lang: string): string {
  const align = (i: number) => (doc.columns[i]?.align === "right" ? ' class="num"' : "");
  const header = doc.columns
    .map((c, i) => `<th${align(i)} style="width:${Math.round(c.width * 100)}%">${e(c.header)}</th>`)
    .join("");
  const rows = doc.rows
    .map((row) => `<tr>${row.map((cell, i) => `<td${align(i)}>${e(cell.text)}</td>`).join("")}</tr>`)
    .join("\n");
  const meta = doc.meta.map(([name, cell]) => `<tr><td>${e(name)}</td><td><b>${e(cell.text)}</b></td></tr>`).join("");
  const summary = doc.summary
    .map(([name, cell]) => `<tr><td>${e(name)}</td><td class="num">${e(cell.text)}</td></tr>`)
    .join("");
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${e(doc.title)}</title>
<style>
  @page { size: A4; margin: 14mm 16mm; }
  ${CSS[style]}
  .num { text-align: right; white-space: nowrap; }
  th.num { text-align: right; }
  .footer { margin-top: 18pt; font-size: 7pt; color: #555; }
</style></head>
<body>
<div class="head"><div class="issuer"><b>${e(doc.issuer[0] ?? "")}</b><br>${lines(doc.issuer.slice(1))}</div></div>
<table class="address" style="width:100%;margin-top:10pt"><tr>
  <td style="width:50%;vertical-align:top">${lines(doc.recipient)}</td>
  <td style="vertical-align:top"><table class="meta">${meta}</table></td>
</tr></table>
<h1>${e(doc.title)}</h1>
<table class="items"><thead><tr>${header}</tr></thead><tbody>
${rows}
</tbody></table>
<table class="summary">${summary}</table>
<div class="footer">${lines(doc.footer)}</div>
</body></html>
`;
}
