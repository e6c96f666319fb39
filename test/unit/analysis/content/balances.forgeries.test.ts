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
const genuineBalances = runningBalances(123_456, MARCH_MOVEMENTS);
/** The salary raised from 2,540.00 to 3,540.00: a typical forgery of a statement. */
const forged = MARCH_MOVEMENTS.map((m, i) => (i === 0 ? { ...m, cents: 354_000 } : m));
const flagsOf = (result: ReturnType<typeof checkBalances>) => result.evidence.map((e) => e.flag);

describe("a statement with a changed amount", () => {
  test("and the printed balances left as they were raises balance_mismatch on that row", () => {
    const lines = columnStatement({ opening: 123_456, movements: forged, balances: genuineBalances });
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual(["balance_mismatch"]);
    const [evidence] = result.evidence;
    expect(evidence!.page).toBe(1);
    expect(evidence!.box![1]).toBe(260);
    expect(evidence!.measured).toBe(money(genuineBalances[0]!).replace(/,/g, ""));
    expect(evidence!.threshold).toBe("4774.56");
  });

  test("and every balance after it recomputed still betrays itself in the column total", () => {
    const lines = columnStatement({ opening: 123_456, movements: forged, totals: true });
    const totalRow = lines.findIndex((l) => l.text === "Total paid in");
    lines[totalRow + 1]!.text = money(304_000); // the genuine total the forger forgot
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual(["balance_mismatch"]);
    expect(result.evidence[0]!.message).toContain("credit");
  });

  // Without running balances the closing balance is the table's only check: nothing shows
  // the table was read as laid out, so neither a break nor an agreement is judged.
  const withoutBalances = (closing: number) =>
    lineStatement({ opening: 123_456, movements: forged, format: "uk", sign: (c, t) => (c < 0 ? `-${t}` : t), closing })
      // Drop the running balance column: keep date, text and amount.
      .map((l) => ({ ...l, text: l.text.replace(/\s{2}[\d,]+\.\d\d$/, "") }));

  test.each([
    ["unchanged", genuineBalances[genuineBalances.length - 1]!],
    ["fixed up", runningBalances(123_456, forged).at(-1)!],
  ])("without running balances and the closing balance %s is not judged", (_name, closing) => {
    const result = checkBalances(documentOf(page(withoutBalances(closing), "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.judged).toBe(false);
    expect(String(result.facts.reason)).toContain("statement");
    expect(result.facts.checked).toBe(0);
    expect(result.coverage).toBe(0);
  });
});

describe("balances read by OCR do not accuse on a possible misread", () => {
  test("a difference on a low-confidence row lowers coverage instead", () => {
    const lines = columnStatement({
      opening: 123_456,
      movements: forged,
      balances: genuineBalances,
      confidence: (row) => (row === 0 ? 0.6 : 0.98),
    });
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBeLessThan(1);
    expect(result.facts.uncertain).toBe(1);
    expect(result.measurements?.uncertainFindings).toBe(1);
  });

  test("a single-digit difference on a row read with 0.93 confidence lowers coverage; at 0.99 it is flagged", () => {
    const misread = (confidence: number) =>
      checkBalances(
        documentOf(
          page(
            columnStatement({
              opening: 123_456,
              movements: forged,
              balances: genuineBalances,
              confidence: () => confidence,
            }),
          ),
        ),
        { now },
      );
    expect(flagsOf(misread(0.93))).toEqual([]);
    expect(misread(0.93).coverage).toBeLessThan(1);
    expect(flagsOf(misread(0.99))).toEqual(["balance_mismatch"]);
  });

  test("a look-alike letter in an amount makes it a guess", () => {
    const lines = columnStatement({ opening: 123_456, movements: forged, balances: genuineBalances });
    const amount = lines.find((l) => l.text === money(354_000))!;
    amount.text = "3,54O.00";
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBe(1);
  });
});

describe("payslips and bills that do not add up", () => {
  test("a payslip whose net pay was raised raises balance_mismatch on the net pay row", () => {
    const result = checkBalances(documentOf(page(payslip(253_550), "pdf")), { now });
    expect(flagsOf(result)).toEqual(["balance_mismatch"]);
    expect(result.evidence[0]!.message).toContain("Net pay");
    expect(result.evidence[0]!.threshold).toBe("2035.50");
  });

  test("a bill whose only total breaks is not judged: nothing shows its items were read as laid out", () => {
    const lines = bill().filter((l) => l.y <= 190);
    lines[lines.length - 1]!.text = money(7_486);
    lines[lines.length - 1]!.x = 900 - lines[lines.length - 1]!.text.length * 10;
    const result = checkBalances(documentOf(page(lines, "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.judged).toBe(false);
    expect(String(result.facts.reason)).toContain("totals: 0 of its checks add up");
    expect(result.coverage).toBe(0);
  });

  test("a utility bill whose total due was lowered raises balance_mismatch on the total row", () => {
    const result = checkBalances(documentOf(page(bill(2_524))), { now });
    expect(flagsOf(result)).toEqual(["balance_mismatch"]);
    expect(result.evidence[0]!.message).toContain("Total amount due");
  });
});
