// The finance content of an external document: a model from finance/model.ts, in one of
// three languages, written as HTML or flat ODT and turned into a PDF by LibreOffice or
// Chromium; and the one amount a forger raises in that source.
import {
  amountFields,
  bankStatement,
  type Cell,
  type FinanceDocument,
  type Ledger,
  payslip,
  utilityBill,
} from "../finance/model.ts";
import { statementLayout } from "../finance/statement-layout.ts";
import { randomPerson } from "../identity/person.ts";
import type { Rng } from "../rng.ts";
import { financeFodt } from "./fodt.ts";
import { financeHtml, HTML_STYLES, type HtmlStyle } from "./html.ts";
import { LOCALES, type Locale, localAmount, localize } from "./locale.ts";
import { chromiumPdf, libreOfficePdf } from "./pdf-tools.ts";
import type { PlannedExternal } from "./plan.ts";

export type Renderer = "libreoffice" | "chromium";

export interface FinanceSource {
  /** The document as printed: labels, amounts and dates in its language. */
  model: FinanceDocument;
  lang: string;
  /**
   * The locale amountFields' figures (1,234.56) are printed in; none for statements, whose
   * layout (finance/statement-layout.ts) prints its own money style.
   */
  amountLocale?: Locale;
  renderer: Renderer;
  /** How the renderer was fed: "fodt", or "html:<style>". */
  format: string;
}

/**
 * Statement, payslip or bill. A statement draws its own layout and language (debit and credit
 * or signed amounts, balances per row or per day, six locales); payslips and bills are put in
 * German, French or English here. Source format and style alternate with the variant.
 */
export function chooseSource(rng: Rng, doc: PlannedExternal, today: Date, renderer: Renderer): FinanceSource {
  const person = randomPerson(rng, today);
  const ordinal = doc.family.recipes.indexOf(doc.recipe);
  // LibreOffice gets an ODT every other time; Chromium only reads HTML.
  const format =
    renderer === "libreoffice" && doc.variant % 2 === 0
      ? "fodt"
      : `html:${HTML_STYLES[(doc.variant + ordinal) % HTML_STYLES.length]}`;
  if (doc.documentType === "financial" && ((doc.variant >> 1) + ordinal) % 2 === 0) {
    const model = bankStatement(rng, person, today, (days) => statementLayout(rng, days, false));
    return {
      model,
      lang: model.ledger.kind === "bank_statement" ? model.ledger.layout.money.locale : "en",
      renderer,
      format,
    };
  }
  const locale = LOCALES[(doc.variant + ordinal) % LOCALES.length]!;
  const model = doc.documentType === "utility_bill" ? utilityBill(rng, person, today) : payslip(rng, person, today);
  return { model: localize(model, locale), lang: locale, amountLocale: locale, renderer, format };
}

export function renderSource(source: FinanceSource, when: Date, model = source.model): Promise<Uint8Array> {
  if (source.format === "fodt") return libreOfficePdf({ kind: "fodt", text: financeFodt(model, source.lang) }, when);
  const html = financeHtml(model, source.format.slice("html:".length) as HtmlStyle, source.lang);
  return source.renderer === "libreoffice"
    ? libreOfficePdf({ kind: "html", text: html }, when)
    : chromiumPdf(html, when);
}

/** The source's label for history and `source`: renderer, layout and language. */
export const sourceName = (s: FinanceSource) => `${s.renderer}/${s.format}/${s.model.kind}/${s.lang}`;

/** The amount a forger raises: the salary credit, the base pay; on a bill a charge lowered. */
function targetAmount(ledger: Ledger): { field: string; forged: Ledger } {
  if (ledger.kind === "bank_statement") {
    const i = ledger.moves.indexOf(Math.max(...ledger.moves));
    const moves = [...ledger.moves];
    moves[i] = Math.round((moves[i] as number) * 1.6 + 45_000);
    return {
      field: ledger.layout.movements === "signed" ? `row${i}.amount` : `row${i}.credit`,
      forged: { ...ledger, moves },
    };
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
  const print = (ledger: Ledger) => {
    const text = amountFields(ledger)[field] as string;
    return source.amountLocale ? localAmount(text, source.amountLocale) : text;
  };
  const [from, to] = [print(source.model.ledger), print(forged)];
  const swap = (cell: Cell): Cell => (cell.field === field ? { ...cell, text: to } : cell);
  const doc = source.model;
  const forgedModel = {
    ...doc,
    rows: doc.rows.map((row) => row.map(swap)),
    summary: doc.summary.map(([k, c]): [string, Cell] => [k, swap(c)]),
  };
  return { field, from, to, forgedModel };
}
