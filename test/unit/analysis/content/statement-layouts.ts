// Statements laid out the ways banks lay them out, as OCR cells or PDF text lines: debit
// and credit columns or one signed column, balances on every row or at the end of each
// day, a table carried over to a second page, headings and numbers in a locale's style.
import type { DocumentText } from "../../../../src/analysis/content/text.ts";
import { documentOf, type LineSpec, type Movement, page } from "./fixtures.ts";

export interface Words {
  date: string;
  description: string;
  debit: string;
  credit: string;
  amount: string;
  balance: string;
  opening: string;
  closing: string;
  brought: string;
  carried: string;
}

export const WORDS: Record<"en" | "de" | "fr" | "es" | "nl" | "it", Words> = {
  en: {
    date: "Date",
    description: "Description",
    debit: "Debit",
    credit: "Credit",
    amount: "Amount",
    balance: "Balance",
    opening: "Opening balance",
    closing: "Closing balance",
    brought: "Balance brought forward",
    carried: "Balance carried forward",
  },
  de: {
    date: "Datum",
    description: "Buchungstext",
    debit: "Soll",
    credit: "Haben",
    amount: "Betrag",
    balance: "Saldo",
    opening: "Alter Saldo",
    closing: "Neuer Saldo",
    brought: "Übertrag",
    carried: "Übertrag",
  },
  fr: {
    date: "Date",
    description: "Libellé",
    debit: "Débit",
    credit: "Crédit",
    amount: "Montant",
    balance: "Solde",
    opening: "Ancien solde",
    closing: "Nouveau solde",
    brought: "Report du solde",
    carried: "Solde à reporter",
  },
  es: {
    date: "Fecha",
    description: "Concepto",
    debit: "Cargo",
    credit: "Abono",
    amount: "Importe",
    balance: "Saldo",
    opening: "Saldo anterior",
    closing: "Saldo final",
    brought: "Suma y sigue",
    carried: "Suma y sigue",
  },
  nl: {
    date: "Datum",
    description: "Omschrijving",
    debit: "Af",
    credit: "Bij",
    amount: "Bedrag",
    balance: "Saldo",
    opening: "Beginsaldo",
    closing: "Eindsaldo",
    brought: "Transport van vorige pagina",
    carried: "Transport naar volgende pagina",
  },
  it: {
    date: "Data",
    description: "Descrizione",
    debit: "Dare",
    credit: "Avere",
    amount: "Importo",
    balance: "Saldo",
    opening: "Saldo iniziale",
    closing: "Saldo finale",
    brought: "Riporto",
    carried: "A riportare",
  },
};

export interface NumberStyle {
  group: string;
  decimal: "." | ",";
  /** Printed before or after each figure, or nothing. */
  currency?: { text: string; before: boolean };
  negative: "minus" | "parentheses" | "crdr";
}

function figure(cents: number, style: NumberStyle): string {
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, style.group);
  const text = `${units}${style.decimal}${String(abs % 100).padStart(2, "0")}`;
  const { currency } = style;
  return !currency ? text : currency.before ? `${currency.text}${text}` : `${text} ${currency.text}`;
}

/** A signed figure: in one amount column, or a balance. */
function signed(cents: number, style: NumberStyle): string {
  if (style.negative === "crdr") return `${figure(cents, style)} ${cents < 0 ? "DR" : "CR"}`;
  if (cents >= 0) return figure(cents, style);
  return style.negative === "parentheses" ? `(${figure(cents, style)})` : `-${figure(cents, style)}`;
}

/** Twelve movements over nine days, some days with two. */
export const TWELVE_MOVEMENTS: Movement[] = [
  { date: "02.03.2024", text: "GEHALT ACME GMBH", cents: 254_000 },
  { date: "04.03.2024", text: "MIETE", cents: -120_000 },
  { date: "04.03.2024", text: "KARTE SUPERMARKT", cents: -8_642 },
  { date: "06.03.2024", text: "KARTE APOTHEKE", cents: -1_999 },
  { date: "09.03.2024", text: "UEBERWEISUNG SPAREN", cents: 50_000 },
  { date: "11.03.2024", text: "LASTSCHRIFT STROM", cents: -6_499 },
  { date: "11.03.2024", text: "KARTE BAECKEREI", cents: -455 },
  { date: "15.03.2024", text: "KARTE TANKSTELLE", cents: -7_210 },
  { date: "19.03.2024", text: "LASTSCHRIFT VERSICHERUNG", cents: -12_999 },
  { date: "22.03.2024", text: "GUTSCHRIFT ERSTATTUNG", cents: 1_500 },
  { date: "27.03.2024", text: "KARTE RESTAURANT", cents: -4_680 },
  { date: "29.03.2024", text: "LASTSCHRIFT TELEFON", cents: -2_999 },
];

export interface TableLayout {
  words: Words;
  numbers: NumberStyle;
  movements: "debit-credit" | "signed";
  /** Only the last row of each day prints its balance. */
  endOfDay?: boolean;
  /** Rows on the first page; the rest follow on a second, the balance carried over. */
  firstPage?: number;
  source?: "ocr" | "pdf";
  /** Printed balances, one per movement, instead of the true running ones. */
  balances?: number[];
  /**
   * Headings set at their column's left edge, over right-aligned figures (office suites, HTML
   * tables).
   */
  headingsLeft?: boolean;
}

const ROW = 30;
const rightAligned = (text: string, right: number, y: number): LineSpec => ({ text, x: right - text.length * 10, y });

/** A statement in `layout`: one line per cell, under a header in the layout's words. */
export function laidOutStatement(opening: number, movements: Movement[], layout: TableLayout): DocumentText {
  const { words, numbers } = layout;
  let balance = opening;
  const balances = layout.balances ?? movements.map((m) => (balance += m.cents));
  // Right edges: a signed layout uses the amount column, the other debit and credit.
  const right = { debit: 580, credit: 750, amount: 720, balance: 930 };
  // A column is 150 wide: a left-set heading starts there, nearer the previous column's figures.
  const heading = (text: string, edge: number, y: number): LineSpec =>
    layout.headingsLeft ? { text, x: edge - 150, y } : rightAligned(text, edge, y);
  const header = (y: number): LineSpec[] => [
    { text: words.date, x: 40, y },
    { text: words.description, x: 160, y },
    ...(layout.movements === "signed"
      ? [heading(words.amount, right.amount, y)]
      : [heading(words.debit, right.debit, y), heading(words.credit, right.credit, y)]),
    heading(words.balance, right.balance, y),
  ];
  const stated = (label: string, cents: number, y: number): LineSpec[] => [
    { text: label, x: 160, y },
    rightAligned(signed(cents, numbers), right.balance, y),
  ];
  const pages: LineSpec[][] = [[{ text: "Statement", y: 40 }, ...header(200), ...stated(words.opening, opening, 230)]];
  let y = 260;
  movements.forEach((m, i) => {
    if (i === layout.firstPage) {
      pages[0]!.push(...stated(words.carried, balances[i - 1]!, y));
      pages.push([...header(100), ...stated(words.brought, balances[i - 1]!, 130)]);
      y = 160;
    }
    const lines = pages[pages.length - 1]!;
    lines.push({ text: m.date, x: 40, y }, { text: m.text, x: 160, y });
    if (layout.movements === "signed") lines.push(rightAligned(signed(m.cents, numbers), right.amount, y));
    else lines.push(rightAligned(figure(Math.abs(m.cents), numbers), m.cents < 0 ? right.debit : right.credit, y));
    const dayEnds = movements[i + 1]?.date !== m.date;
    if (!layout.endOfDay || dayEnds) lines.push(rightAligned(signed(balances[i]!, numbers), right.balance, y));
    y += ROW;
  });
  pages[pages.length - 1]!.push(...stated(words.closing, balances[balances.length - 1]!, y));
  return documentOf(...pages.map((lines, i) => page(lines, layout.source ?? "ocr", i + 1)));
}

/** The y at which movement `index` is printed, on its page. */
export const rowY = (index: number, layout: TableLayout): number =>
  layout.firstPage !== undefined && index >= layout.firstPage
    ? 160 + (index - layout.firstPage) * ROW
    : 260 + index * ROW;
