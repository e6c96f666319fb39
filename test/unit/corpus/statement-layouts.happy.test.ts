import { describe, expect, test } from "bun:test";
import { formatSigned, formatUnsigned, type MoneyStyle } from "../../../scripts/corpus/finance/money-style.ts";
import { statementLayout } from "../../../scripts/corpus/finance/statement-layout.ts";
import { makeFinanceDocument } from "../../../scripts/corpus/make-finance.ts";
import { Rng } from "../../../scripts/corpus/rng.ts";
import { checkStatementBalances } from "./statement-text.ts";

const DAYS = [0, 1, 1, 2, 4, 4, 4, 5, 7, 8, 8, 9, 11, 12, 12, 13, 15, 16, 18, 18, 19, 21, 22, 24, 25, 27];

describe("statement layouts drawn by the seeded rng", () => {
  const layouts = Array.from({ length: 200 }, (_, seed) => statementLayout(new Rng(seed), DAYS, true));

  test("cover every locale, both movement columns, every negative mark and currency placement", () => {
    expect(new Set(layouts.map((l) => l.money.locale))).toEqual(new Set(["en", "de", "nl", "es", "it", "fr"]));
    expect(new Set(layouts.map((l) => l.movements))).toEqual(new Set(["debit-credit", "signed"]));
    expect(new Set(layouts.map((l) => l.money.negative))).toEqual(new Set(["minus", "parentheses", "crdr"]));
    expect(new Set(layouts.map((l) => l.money.currency))).toEqual(new Set(["EUR", "GBP", "USD", "CHF"]));
    expect(new Set(layouts.map((l) => l.money.currencyAt))).toEqual(
      new Set(["none", "before", "after", "code-before", "code-after"]),
    );
  });

  test("print balances on every row or at the end of each day, on one page or several", () => {
    expect(layouts.some((l) => l.balanceShown.every(Boolean))).toBe(true);
    const endOfDay = layouts.find((l) => !l.balanceShown.every(Boolean))!;
    expect(endOfDay.balanceShown.filter((shown, i) => shown !== (DAYS[i + 1] !== DAYS[i]))).toEqual([]);
    expect(layouts.some((l) => l.pageBreaks.length === 0)).toBe(true);
    expect(layouts.some((l) => l.pageBreaks.length >= 2)).toBe(true);
  });

  test("are the same for the same seed", () => {
    expect(statementLayout(new Rng(7), DAYS, true)).toEqual(statementLayout(new Rng(7), DAYS, true));
  });

  test("keep a statement delivered as an image on one page", () => {
    for (let seed = 0; seed < 50; seed++) expect(statementLayout(new Rng(seed), DAYS, false).pageBreaks).toEqual([]);
  });
});

describe("money as each locale prints it", () => {
  const style = (over: Partial<MoneyStyle>): MoneyStyle => ({
    locale: "en",
    currency: "EUR",
    currencyAt: "none",
    group: ",",
    decimal: ".",
    negative: "minus",
    ...over,
  });

  test.each([
    [style({}), -123_456, "-1,234.56"],
    [style({ locale: "de", group: ".", decimal: ",", currencyAt: "after" }), -123_456, "-1.234,56 €"],
    [
      style({ locale: "fr", group: "\u00a0", decimal: ",", negative: "parentheses", currencyAt: "code-after" }),
      -123_456,
      "(1\u00a0234,56 EUR)",
    ],
    [style({ currency: "GBP", currencyAt: "before", negative: "crdr" }), -123_456, "£1,234.56 DR"],
    [style({ currency: "CHF", currencyAt: "before", negative: "crdr" }), 123_456, "CHF 1,234.56 CR"],
    [style({ currency: "USD", currencyAt: "code-before" }), 5, "USD 0.05"],
  ])("%o prints %d as %s", (money, cents, printed) => {
    expect(formatSigned(cents, money)).toBe(printed);
  });

  test("debit and credit columns print the magnitude alone", () => {
    expect(
      formatUnsigned(123_456, style({ locale: "it", group: ".", decimal: ",", currencyAt: "after", negative: "crdr" })),
    ).toBe("1.234,56 €");
  });
});

describe("statements made by the corpus generator", () => {
  const today = new Date("2026-11-20T00:00:00Z");
  const make = (kind: string, variant: number) =>
    makeFinanceDocument(
      { id: `s${variant}`, kind: kind as never, documentType: "financial", variant, split: "test" },
      new Rng(1000 + variant * 7),
      today,
    );

  test("over several pages have an amount rewritten on a later page, and the balance check catches it", async () => {
    let later = 0;
    for (let variant = 1; variant < 120 && later === 0; variant += 3) {
      const made = await make("pdf_amount_rewrite", variant);
      if (!made.source.endsWith("bank_statement") || (made.forgery?.regions[0]?.page ?? 0) === 0) continue;
      later++;
      expect(checkStatementBalances(made.bytes, today).mismatches).toBeGreaterThan(0);
    }
    expect(later).toBe(1);
  });
});
