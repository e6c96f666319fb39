import { describe, expect, test } from "bun:test";
import { checkBalances } from "../../../../src/analysis/content/balances.ts";
import {
  bill,
  columnStatement,
  documentOf,
  lineStatement,
  MARCH_MOVEMENTS,
  money,
  page,
  payslip,
  runningBalances,
} from "./fixtures.ts";

const now = new Date("2024-06-01T00:00:00Z");

describe("a statement whose balances add up raises nothing", () => {
  test("read by OCR as table cells under debit, credit and balance columns", () => {
    const result = checkBalances(
      documentOf(page(columnStatement({ opening: 123_456, movements: MARCH_MOVEMENTS, totals: true }))),
      { now },
    );
    expect(result.evidence).toEqual([]);
    expect(result.facts.transactions).toBe(5);
    expect(result.facts.checked).toBe(8);
    expect(result.coverage).toBe(1);
  });

  test.each([
    ["minus signs, 1,234.56", "uk", (c: number, t: string) => (c < 0 ? `-${t}` : t)],
    ["minus signs, 1.234,56", "de", (c: number, t: string) => (c < 0 ? `-${t}` : t)],
    ["parentheses", "uk", (c: number, t: string) => (c < 0 ? `(${t})` : t)],
    ["CR and DR", "uk", (c: number, t: string) => `${t} ${c < 0 ? "DR" : "CR"}`],
    ["a trailing minus and a currency sign", "uk", (c: number, t: string) => (c < 0 ? `£${t}-` : `£${t}`)],
  ] as const)("from a PDF text layer with %s", (_name, format, sign) => {
    const lines = lineStatement({ opening: 1_000_000, movements: MARCH_MOVEMENTS, format, sign });
    const result = checkBalances(documentOf(page(lines, "pdf")), { now });
    expect(result.evidence).toEqual([]);
    expect(result.facts.checked).toBe(6);
  });

  test("listed newest first", () => {
    const balances = runningBalances(123_456, MARCH_MOVEMENTS);
    const newestFirst = MARCH_MOVEMENTS.map(
      (m, i) => `${m.date}  ${m.text}  ${m.cents < 0 ? "-" : ""}${money(m.cents)}  ${money(balances[i]!)}`,
    )
      .reverse()
      .map((text, i) => ({ text, y: 100 + i * 30 }));
    const result = checkBalances(documentOf(page(newestFirst, "pdf")), { now });
    expect(result.evidence).toEqual([]);
    expect(result.facts.checked).toBe(4);
  });
});

describe("payslips and bills whose totals add up raise nothing", () => {
  test("a payslip: earnings sum to gross, deductions to their total, gross minus deductions is net", () => {
    const result = checkBalances(documentOf(page(payslip(), "pdf")), { now });
    expect(result.evidence).toEqual([]);
    expect(result.facts.checked).toBe(3);
  });

  test("a utility bill: items and VAT sum to the total due, an unsigned payment subtracted", () => {
    const result = checkBalances(documentOf(page(bill())), { now });
    expect(result.evidence).toEqual([]);
    expect(result.facts.checked).toBeGreaterThanOrEqual(2);
  });
});
