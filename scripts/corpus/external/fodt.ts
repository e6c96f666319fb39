// Finance documents as flat OpenDocument text (.fodt), the single-file form of ODT that
// LibreOffice opens like any .odt: a letter-style page in Liberation Serif with a ruled
// Writer table, as an office clerk's template would be.
import type { FinanceDocument } from "../finance/model.ts";
import { escapeXml } from "../render/svg.ts";

const e = escapeXml;
const para = (style: string, text: string) => `<text:p text:style-name="${style}">${e(text)}</text:p>`;
const cell = (style: string, text: string) =>
  `<table:table-cell table:style-name="Cell" office:value-type="string">${para(style, text)}</table:table-cell>`;

const STYLES = `
<office:font-face-decls>
  <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman"/>
  <style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'" style:font-family-generic="swiss"/>
</office:font-face-decls>
<office:styles>
  <style:default-style style:family="paragraph">
    <style:text-properties style:font-name="Liberation Serif" fo:font-size="9pt" fo:language="de" fo:country="DE"/>
  </style:default-style>
</office:styles>
<office:automatic-styles>
  <style:page-layout style:name="A4"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.6cm" fo:margin-bottom="1.4cm" fo:margin-left="2cm" fo:margin-right="1.6cm"/></style:page-layout>
  <style:style style:name="Issuer" style:family="paragraph"><style:text-properties style:font-name="Liberation Sans" fo:font-size="14pt" fo:font-weight="bold" fo:color="#1d3f73"/></style:style>
  <style:style style:name="Small" style:family="paragraph"><style:text-properties fo:font-size="8pt" fo:color="#444444"/></style:style>
  <style:style style:name="Title" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.5cm" fo:margin-bottom="0.3cm"/><style:text-properties style:font-name="Liberation Sans" fo:font-size="12pt" fo:font-weight="bold"/></style:style>
  <style:style style:name="L" style:family="paragraph"/>
  <style:style style:name="R" style:family="paragraph"><style:paragraph-properties fo:text-align="end"/></style:style>
  <style:style style:name="H" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="HR" style:family="paragraph"><style:paragraph-properties fo:text-align="end"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.05cm" fo:border-bottom="0.5pt solid #9a9a9a"/></style:style>
  <style:style style:name="Items" style:family="table"><style:table-properties style:width="17.4cm" table:align="left"/></style:style>
  <style:style style:name="Half" style:family="table"><style:table-properties style:width="8.7cm" table:align="right"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="A4"/></office:master-styles>`;

/** A Writer table and the column styles it names (they belong in office:automatic-styles). */
function table(
  name: string,
  style: string,
  widths: number[],
  rows: string[][],
  aligns: ("L" | "R")[],
  head?: string[],
): { xml: string; columnStyles: string } {
  const total = 17.4;
  const cols = widths.map((_, i) => `<table:table-column table:style-name="${name}.C${i}"/>`).join("");
  const colStyles = widths
    .map(
      (w, i) =>
        `<style:style style:name="${name}.C${i}" style:family="table-column"><style:table-column-properties style:column-width="${(w * total).toFixed(2)}cm"/></style:style>`,
    )
    .join("");
  const headRow = head
    ? `<table:table-header-rows><table:table-row>${head.map((h, i) => cell(aligns[i] === "R" ? "HR" : "H", h)).join("")}</table:table-row></table:table-header-rows>`
    : "";
  const body = rows
    .map((r) => `<table:table-row>${r.map((t, i) => cell(aligns[i] ?? "L", t)).join("")}</table:table-row>`)
    .join("\n");
  return {
    xml: `<table:table table:name="${name}" table:style-name="${style}">${cols}${headRow}${body}</table:table>`,
    columnStyles: colStyles,
  };
}

export function financeFodt(doc: FinanceDocument, lang: string): string {
  const items = table(
    "Items",
    "Items",
    doc.columns.map((c) => c.width),
    doc.rows.map((r) => r.map((c) => c.text)),
    doc.columns.map((c) => (c.align === "right" ? "R" : "L")),
    doc.columns.map((c) => c.header),
  );
  const meta = table(
    "Meta",
    "Half",
    [0.2, 0.3],
    doc.meta.map(([k, v]) => [k, v.text]),
    ["L", "L"],
  );
  const summary = table(
    "Summary",
    "Half",
    [0.3, 0.2],
    doc.summary.map(([k, v]) => [k, v.text]),
    ["L", "R"],
  );
  const columnStyles = [items, meta, summary].map((t) => t.columnStyles).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
  xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><meta:generator>docverify corpus</meta:generator></office:meta>
${STYLES.replace("</office:automatic-styles>", `${columnStyles}</office:automatic-styles>`).replace('fo:language="de" fo:country="DE"', `fo:language="${lang}"`)}
<office:body><office:text>
${doc.issuer.map((l, i) => para(i === 0 ? "Issuer" : "Small", l)).join("\n")}
${para("L", "")}
${doc.recipient.map((l) => para("L", l)).join("\n")}
${meta.xml}
${para("Title", doc.title)}
${items.xml}
${summary.xml}
${para("L", "")}
${doc.footer.map((l) => para("Small", l)).join("\n")}
</office:text></office:body></office:document>
`;
}
