import { describe, expect, test } from "bun:test";
import { checkDates } from "../../../../src/analysis/content/dates.ts";
import { documentOf, lineStatement, page, readingsOf, type LineSpec, type Movement } from "./fixtures.ts";

const now = new Date("2025-06-01T00:00:00Z");
const flagsOf = (result: ReturnType<typeof checkDates>) => result.evidence.map((e) => e.flag);

const card = (issue: string, expiry: string, birth = "12.08.1974"): LineSpec[] => [
  { text: "Date of birth", y: 100 },
  { text: birth, y: 125 },
  { text: "Date of issue", y: 160 },
  { text: issue, y: 185 },
  { text: "Date of expiry", y: 220 },
  { text: expiry, y: 245 },
];

const movements: Movement[] = [
  { date: "02/03/2025", text: "Salary", cents: 254_000 },
  { date: "14/03/2025", text: "Rent", cents: -120_000 },
  { date: "28/03/2025", text: "Energy", cents: -6_499 },
];
const statement = (period: string, moves = movements): LineSpec[] => [
  { text: `Statement period: ${period}`, y: 40 },
  ...lineStatement({ opening: 100_000, movements: moves, format: "uk", sign: (c, t) => (c < 0 ? `-${t}` : t) }),
];

describe("consistent dates raise nothing", () => {
  test("an identity card issued after birth and before expiry", () => {
    const result = checkDates(documentOf(page(card("15.04.2020", "14.04.2030"), "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(1);
  });

  test("a statement whose transactions lie within its period", () => {
    const result = checkDates(documentOf(page(statement("01/03/2025 to 31/03/2025"), "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.order).toBe("dmy");
  });

  test("US month/day dates are read in their order", () => {
    const us = movements.map((m) => ({ ...m, date: m.date.replace(/^(\d\d)\/(\d\d)/, "$2/$1") }));
    expect(flagsOf(checkDates(documentOf(page(statement("03/01/2025 - 03/31/2025", us), "pdf")), { now }))).toEqual([]);
  });
});

describe("dates that cannot be right raise text_inconsistency", () => {
  test.each(["31 FEB 2024", "30.02.2024", "15/13/2024", "2024-13-01"])("the impossible date %s", (date) => {
    const result = checkDates(documentOf(page([{ text: `Date of issue: ${date}`, y: 100 }], "pdf")), { now });
    expect(flagsOf(result)).toEqual(["text_inconsistency"]);
    expect(result.evidence[0]!.measured).toBe(date);
  });

  test("an issue date after the expiry date", () => {
    const result = checkDates(documentOf(page(card("15.04.2024", "14.04.2023"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual(["The issue date is after the expiry date"]);
  });

  test("a birth date after the issue date", () => {
    const result = checkDates(documentOf(page(card("15.04.2020", "14.04.2030", "03.05.2021"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual(["The birth date is after the issue date"]);
  });

  test("a statement period that ends before it starts", () => {
    const result = checkDates(documentOf(page(statement("31/03/2025 to 01/03/2025"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toContain("The statement period ends before it starts");
  });

  test("a transaction dated outside the statement period", () => {
    const moved = movements.map((m, i) => (i === 2 ? { ...m, date: "04/04/2025" } : m));
    const result = checkDates(documentOf(page(statement("01/03/2025 to 31/03/2025", moved), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual(["A transaction is dated outside the statement period"]);
    expect(result.evidence[0]!.measured).toBe("04/04/2025");
  });

  test("an issue date after the analysis date", () => {
    const result = checkDates(documentOf(page(card("15.04.2026", "14.04.2036"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual(["A date is after the analysis date"]);
    expect(result.evidence[0]!.threshold).toBe("2025-06-01");
  });
});

describe("a date OCR may have misread lowers coverage instead", () => {
  test("an impossible date on a line not read near-certainly", () => {
    const result = checkDates(documentOf(page([{ text: "Date of issue: 31.02.2024", y: 100, confidence: 0.93 }])), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(0);
  });

  test("an issue date after expiry with a look-alike letter in it", () => {
    const result = checkDates(documentOf(page(card("15.O4.2024", "14.04.2023"))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBeGreaterThan(0);
  });
});

describe("an identity document is valid no longer than issuers grant", () => {
  const tooLong = "The document is valid longer than any issuer grants a holder under 70 (15 years)";
  const messages = (lines: LineSpec[]) => checkDates(documentOf(page(lines, "pdf")), { now }).evidence.map((e) => e.message);

  test("an issue year moved ten years back, the validity still on the anniversary, is text_inconsistency", () => {
    const result = checkDates(documentOf(page(card("19.12.2011", "18.12.2031", "04.03.1983"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual([tooLong]);
    expect(result.evidence[0]).toMatchObject({ flag: "text_inconsistency", measured: "18.12.2031", threshold: "19.12.2011" });
  });

  test.each([
    ["fifteen years, a French or German card", "15.04.2020", "14.04.2035", "12.08.1974"],
    ["fifteen years to the day", "15.04.2020", "15.04.2035", "12.08.1974"],
    ["thirty years for a holder of 75, as Belgium's eID", "15.04.2020", "14.04.2050", "02.01.1945"],
    ["an expiry on the holder's 65th birthday, as Arizona's licences", "15.04.2010", "12.08.2039", "12.08.1974"],
  ])("%s raises nothing", (_, issue, expiry, birth) => {
    expect(messages(card(issue, expiry, birth))).toEqual([]);
  });

  test("is not judged without the birth date: the holder's age decides", () => {
    const withoutBirth = card("19.12.2011", "18.12.2031").slice(2);
    expect(messages(withoutBirth)).toEqual([]);
  });
});

describe("an identity document's validity ends on an anniversary", () => {
  const anniversary = "The expiry date is on no anniversary of the issue date (nor of the birth date)";
  const messages = (lines: LineSpec[], source: "pdf" | "ocr" = "pdf") => checkDates(documentOf(page(lines, source)), { now }).evidence.map((e) => e.message);

  test.each([
    ["the day before, ten years on", "15.04.2020", "14.04.2030"],
    ["the same day, five years on", "15.04.2020", "15.04.2025"],
    ["a 29 February issue, in a common year", "29.02.2016", "28.02.2026"],
    ["the turn of a year", "01.01.2016", "31.12.2025"],
  ])("%s raises nothing", (_, issue, expiry) => {
    expect(messages(card(issue, expiry))).toEqual([]);
  });

  test("an expiry on the holder's birthday, as Italy's and Spain's cards do, raises nothing", () => {
    expect(messages(card("03.05.2021", "12.08.2031", "12.08.1974"))).toEqual([]);
  });

  test("a British passport issued before September 2018 may carry up to nine months over; a later one may not", () => {
    const british = (issue: string, expiry: string): LineSpec[] => [{ text: "UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND", y: 40 }, ...card(issue, expiry)];
    expect(messages(british("03.05.2016", "03.12.2026"))).toEqual([]);
    expect(messages(british("03.05.2019", "03.12.2029"))).toEqual([anniversary]);
    expect(messages(card("03.05.2016", "03.12.2026"))).toEqual([anniversary]);
  });

  test("an expiry day moved off the anniversary is text_inconsistency", () => {
    const result = checkDates(documentOf(page(card("15.11.2023", "11.11.2033"), "pdf")), { now });
    expect(result.evidence.map((e) => e.message)).toEqual([anniversary]);
    expect(result.evidence[0]).toMatchObject({ flag: "text_inconsistency", measured: "11.11.2033", threshold: "15.11.2023" });
  });

  test("an EU driving licence's numbered fields 4a. and 4b. are its issue and expiry dates", () => {
    const licence = (expiry: string): LineSpec[] => [
      { text: "3.01.07.1981 Geneva", y: 100 },
      { text: "4a.15.11.2023", y: 130 },
      { text: `4b.${expiry}`, y: 160 },
      { text: "4C.PREFECTURE DE UTRECHT", y: 190 },
    ];
    expect(messages(licence("14.11.2033"))).toEqual([]);
    expect(messages(licence("11.11.2033"))).toEqual([anniversary]);
  });

  test("on a line OCR read below near-certainty, a date counts as read when the recogniser was sure of each digit", () => {
    const lines = card("15.11.2023", "11.11.2033").map((l) => ({ ...l, confidence: 0.96 }));
    expect(messages(lines, "ocr")).toEqual([]);
    const described = lines.map((l) => ({ ...l, characters: readingsOf(l.text) }));
    expect(messages(described, "ocr")).toEqual([anniversary]);
    const oneUnsureDigit = described.map((l) => (l.text === "11.11.2033" ? { ...l, characters: readingsOf(l.text, { 1: { probability: 0.7, alternatives: [{ character: "4", probability: 0.25 }] } }) } : l));
    expect(messages(oneUnsureDigit, "ocr")).toEqual([]);
  });
});
