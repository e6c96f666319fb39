// How banks lay out a statement's table, drawn per document: debit and credit columns or
// one signed amount column, a balance on every row or only at the end of each day, the
// table split over pages with its balance carried and brought forward, the headings in
// the locale's language.
import type { Rng } from "../rng.ts";
import { CLASSIC_MONEY, type Locale, type MoneyStyle, moneyStyle } from "./money-style.ts";

interface StatementWords {
  title: string;
  date: string;
  description: string;
  debit: string;
  credit: string;
  amount: string;
  balance: string;
  opening: string;
  closing: string;
  totalDebits: string;
  totalCredits: string;
  brought: string;
  carried: string;
  holder: string;
  period: string;
  currency: string;
}

const WORDS: Record<Locale, StatementWords> = {
  en: {
    title: "RELEVÉ DE COMPTE / ACCOUNT STATEMENT",
    date: "Date",
    description: "Description",
    debit: "Debit",
    credit: "Credit",
    amount: "Amount",
    balance: "Balance",
    opening: "Opening balance",
    closing: "Closing balance",
    totalDebits: "Total debits",
    totalCredits: "Total credits",
    brought: "Balance brought forward",
    carried: "Balance carried forward",
    holder: "Account holder",
    period: "Period",
    currency: "Currency",
  },
  de: {
    title: "KONTOAUSZUG",
    date: "Datum",
    description: "Buchungstext",
    debit: "Soll",
    credit: "Haben",
    amount: "Betrag",
    balance: "Saldo",
    opening: "Alter Saldo",
    closing: "Neuer Saldo",
    totalDebits: "Summe Soll",
    totalCredits: "Summe Haben",
    brought: "Übertrag",
    carried: "Übertrag",
    holder: "Kontoinhaber",
    period: "Zeitraum",
    currency: "Währung",
  },
  fr: {
    title: "RELEVÉ DE COMPTE",
    date: "Date",
    description: "Libellé",
    debit: "Débit",
    credit: "Crédit",
    amount: "Montant",
    balance: "Solde",
    opening: "Ancien solde",
    closing: "Nouveau solde",
    totalDebits: "Total débits",
    totalCredits: "Total crédits",
    brought: "Report du solde",
    carried: "Solde à reporter",
    holder: "Titulaire",
    period: "Période",
    currency: "Devise",
  },
  es: {
    title: "EXTRACTO DE CUENTA",
    date: "Fecha",
    description: "Concepto",
    debit: "Cargo",
    credit: "Abono",
    amount: "Importe",
    balance: "Saldo",
    opening: "Saldo anterior",
    closing: "Saldo final",
    totalDebits: "Total cargos",
    totalCredits: "Total abonos",
    brought: "Suma y sigue",
    carried: "Suma y sigue",
    holder: "Titular",
    period: "Periodo",
    currency: "Divisa",
  },
  nl: {
    title: "REKENINGAFSCHRIFT",
    date: "Datum",
    description: "Omschrijving",
    debit: "Af",
    credit: "Bij",
    amount: "Bedrag",
    balance: "Saldo",
    opening: "Beginsaldo",
    closing: "Eindsaldo",
    totalDebits: "Totaal af",
    totalCredits: "Totaal bij",
    brought: "Transport van vorige pagina",
    carried: "Transport naar volgende pagina",
    holder: "Rekeninghouder",
    period: "Periode",
    currency: "Valuta",
  },
  it: {
    title: "ESTRATTO CONTO",
    date: "Data",
    description: "Descrizione",
    debit: "Dare",
    credit: "Avere",
    amount: "Importo",
    balance: "Saldo",
    opening: "Saldo iniziale",
    closing: "Saldo finale",
    totalDebits: "Totale dare",
    totalCredits: "Totale avere",
    brought: "Riporto",
    carried: "A riportare",
    holder: "Intestatario",
    period: "Periodo",
    currency: "Valuta",
  },
};

/** Date separators as each locale prints them. */
const DATE_SEPARATOR: Record<Locale, string> = { en: "/", de: ".", fr: "/", es: "/", nl: "-", it: "/" };

export interface StatementLayout {
  money: MoneyStyle;
  words: StatementWords;
  dateSeparator: string;
  /** Debit and credit columns, or one signed amount column. */
  movements: "debit-credit" | "signed";
  /** Per transaction: whether its row prints the balance after it. */
  balanceShown: boolean[];
  /** Transactions that start a new page (each after a carried- and brought-forward row). */
  pageBreaks: number[];
}

/** Rows a page holds below the letterhead; a longer table continues on the next page. */
const ROWS_PER_PAGE = [8, 10, 12];

/**
 * Draws a layout for `days` (each transaction's day number, oldest first). `paged`: the
 * table may run over several pages (a PDF; a photographed page shows one).
 */
export function statementLayout(rng: Rng, days: number[], paged: boolean): StatementLayout {
  const money = moneyStyle(rng);
  const endOfDay = rng.chance(0.4);
  const balanceShown = days.map((day, i) => !endOfDay || days[i + 1] !== day);
  const perPage = paged && rng.chance(0.5) ? rng.pick(ROWS_PER_PAGE) : days.length;
  const pageBreaks: number[] = [];
  for (let at = perPage; at < days.length; at += perPage) pageBreaks.push(at);
  return {
    money,
    words: WORDS[money.locale],
    dateSeparator: DATE_SEPARATOR[money.locale],
    movements: rng.chance(0.5) ? "debit-credit" : "signed",
    balanceShown,
    pageBreaks,
  };
}

/**
 * The one layout the corpus drew before layouts varied: English, debit and credit columns, a
 * balance on every row, one page.
 */
export const classicLayout = (days: number[]): StatementLayout => ({
  money: CLASSIC_MONEY,
  words: WORDS.en,
  dateSeparator: DATE_SEPARATOR.en,
  movements: "debit-credit",
  balanceShown: days.map(() => true),
  pageBreaks: [],
});
