// How a document prints money: the locale's separators (1,234.56 · 1.234,56 · 1 234,56),
// the currency as a symbol before or after the figure, as an ISO code, or only in a
// heading, and how a negative figure is marked (minus, parentheses, CR/DR).
import type { Rng } from "../rng.ts";

export type Locale = "en" | "de" | "nl" | "es" | "it" | "fr";
type Currency = "EUR" | "GBP" | "USD" | "CHF";
type Negative = "minus" | "parentheses" | "crdr";

export interface MoneyStyle {
  locale: Locale;
  currency: Currency;
  /** Where the currency stands on each figure; "none" leaves it to the headings. */
  currencyAt: "before" | "after" | "code-before" | "code-after" | "none";
  /** Thousands separator. */
  group: string;
  decimal: "." | ",";
  negative: Negative;
}

/** 1,234.56 and -1,234.56, the currency in the headings. */
export const CLASSIC_MONEY: MoneyStyle = {
  locale: "en",
  currency: "EUR",
  currencyAt: "none",
  group: ",",
  decimal: ".",
  negative: "minus",
};

const SYMBOL: Record<Currency, string> = { EUR: "€", GBP: "£", USD: "$", CHF: "CHF" };

/**
 * French groups thousands with a no-break space. Its narrow form (U+202F) is what French
 * typography asks for, but the standard PDF fonts' WinAnsi encoding has no such glyph, so
 * these PDFs print U+00A0 or a plain space.
 */
const FRENCH_GROUPS = ["\u00a0", " "];

export function moneyStyle(rng: Rng): MoneyStyle {
  const locale = rng.pick<Locale>(["en", "en", "de", "nl", "es", "it", "fr"]);
  const currency: Currency =
    locale === "en" ? rng.pick<Currency>(["GBP", "USD", "EUR"]) : rng.pick<Currency>(["EUR", "EUR", "EUR", "CHF"]);
  const symbolFirst = locale === "en" || locale === "nl";
  const currencyAt = rng.pick<MoneyStyle["currencyAt"]>([
    "none",
    symbolFirst ? "before" : "after",
    rng.chance(0.5) ? "code-before" : "code-after",
  ]);
  const [group, decimal]: [string, "." | ","] =
    locale === "en" ? [",", "."] : locale === "fr" ? [rng.pick(FRENCH_GROUPS), ","] : [".", ","];
  return {
    locale,
    currency,
    currencyAt,
    group,
    decimal,
    negative: rng.pick<Negative>(["minus", "parentheses", "crdr"]),
  };
}

/** The figure alone: 1.234,56 in a German style. */
function figure(cents: number, style: MoneyStyle): string {
  const abs = Math.abs(Math.round(cents));
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, style.group);
  return `${units}${style.decimal}${String(abs % 100).padStart(2, "0")}`;
}

function withCurrency(text: string, style: MoneyStyle): string {
  const symbol = SYMBOL[style.currency];
  switch (style.currencyAt) {
    case "before":
      return symbol.length > 1 ? `${symbol} ${text}` : `${symbol}${text}`;
    case "after":
      return `${text} ${symbol}`;
    case "code-before":
      return `${style.currency} ${text}`;
    case "code-after":
      return `${text} ${style.currency}`;
    case "none":
      return text;
  }
}

/** A magnitude, as debit and credit columns print it. */
export const formatUnsigned = (cents: number, style: MoneyStyle): string => withCurrency(figure(cents, style), style);

/**
 * A signed figure, as one amount column or a balance prints it. CR/DR mark both signs: a
 * table that writes DR after its debits writes CR after its credits.
 */
export function formatSigned(cents: number, style: MoneyStyle): string {
  const body = withCurrency(figure(cents, style), style);
  if (style.negative === "crdr") return `${body} ${cents < 0 ? "DR" : "CR"}`;
  if (cents >= 0) return body;
  return style.negative === "parentheses" ? `(${body})` : `-${body}`;
}
