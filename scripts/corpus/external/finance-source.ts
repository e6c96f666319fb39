// The finance content of an external document: a model from finance/model.ts, in one of
// three languages, written as HTML or flat ODT and turned into a PDF by LibreOffice or
// Chromium; and the one amount a forger raises in that source.
import { amountFields, bankStatement, type Cell, type FinanceDocument, type Ledger, payslip, utilityBill } from "../finance/model.ts";
import { randomPerson } from "../identity/person.ts";
import type { Rng } from "../rng.ts";
import { financeFodt } from "./fodt.ts";
import { financeHtml, HTML_STYLES } from "./html.ts";
import { LOCALES, type Locale, localAmount, localize } from "./locale.ts";
import { chromiumPdf, libreOfficePdf } from "./pdf-tools.ts";
import type { PlannedExternal } from "./plan.ts";

export type Renderer = "libreoffice" | "chromium";

export interface FinanceSource {
  model: FinanceDocument;
  locale: Locale;
  renderer: Renderer;
  /** How the renderer was fed: "fodt", or "html:<style>". */
  format: string;
}

/** Statement, payslip or bill; locale, source format and style alternate with the variant. */
export function chooseSource(rng: Rng, doc: PlannedExternal, today: Date, renderer: Renderer): FinanceSource {
  const person = randomPerson(rng, today);
  const ordinal = doc.family.recipes.indexOf(doc.recipe);
  const model =
    doc.documentType === "utility_bill" ? utilityBill(rng, person, today) : ((doc.variant >> 1) + ordinal) % 2 === 0 ? bankStatement(rng, person, today) : payslip(rng, person, today);
  const locale = LOCALES[(doc.variant + ordinal) % LOCALES.length]!;
  // LibreOffice gets an ODT every other time; Chromium only reads HTML.
  const format = renderer === "libreoffice" && doc.variant % 2 === 0 ? "fodt" : `html:${HTML_STYLES[(doc.variant + ordinal) % HTML_STYLES.length]}`;
  return { model, locale, renderer, format };
}

export function renderSource(source: FinanceSource, when: Date, model = source.model): Promise<Uint8Array> {
  const printed = localize(model, source.locale);
  if (source.format === "fodt") return libreOfficePdf({ kind: "fodt", text: financeFodt(printed, source.locale) }, when);
  const html = financeHtml(printed, source.format.slice("html:".length) as (typeof HTML_STYLES)[number], source.locale);
  return source.renderer === "libreoffice" ? libreOfficePdf({ kind: "html", text: html }, when) : chromiumPdf(html, when);
}

/** The source's label for history and `source`: renderer, layout and language. */
export const sourceName = (s: FinanceSource) => `${s.renderer}/${s.format}/${s.model.kind}/${s.locale}`;

/** The amount a forger raises: the salary credit, the base pay; on a bill a charge lowered. */
export function targetAmount(ledger: Ledger): { field: string; forged: Ledger } {
  if (ledger.kind === "bank_statement") {
    const i = ledger.moves.indexOf(Math.max(...ledger.moves));
    const moves = [...ledger.moves];
    moves[i] = Math.round((moves[i] as number) * 1.6 + 45_000);
    return { field: `row${i}.credit`, forged: { ...ledger, moves } };
  }
  if (ledger.kind === "payslip") {
    const earnings = [...ledger.earnings];
    earnings[0] = Math.round((earnings[0] as number) * 1.45 + 30_000);
    return { field: "earning0", forged: { ...ledger, earnings } };
  }
  const items = [...ledger.items];
  items[2] = Math.round((items[2] as number) * 0.35);
  return { field: "item2", forged: { ...ledger, items } };
}

export interface AmountChange {
  field: string;
  /** Both as printed in the document's locale. */
  from: string;
  to: string;
  /** The model as an edit of the HTML/ODT leaves it: that one amount changed, no total. */
  forgedModel: FinanceDocument;
}

export function amountChange(source: FinanceSource): AmountChange {
  const { field, forged } = targetAmount(source.model.ledger);
  const [before, after] = [amountFields(source.model.ledger)[field] as string, amountFields(forged)[field] as string];
  const swap = (cell: Cell): Cell => (cell.field === field ? { ...cell, text: after } : cell);
  const doc = source.model;
  const forgedModel = { ...doc, rows: doc.rows.map((row) => row.map(swap)), summary: doc.summary.map(([k, c]): [string, Cell] => [k, swap(c)]) };
  return { field, from: localAmount(before, source.locale), to: localAmount(after, source.locale), forgedModel };
}
