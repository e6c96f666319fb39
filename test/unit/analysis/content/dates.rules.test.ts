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
  test.each(["31 FEB 2024", "30.02.2024", "15/13/2024", "2024-02-30"])("the impossible date %s", (date) => {
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

describe("a year printed in two digits is not judged to be in the future", () => {
  test("'1 July 31', whose 31 may be the day of a range ('July 1 - July 31, 2015' on a statement)", () => {
    expect(flagsOf(checkDates(documentOf(page(card("1 July 31", "14.04.2036"), "pdf")), { now }))).toEqual([]);
  });
});

describe("a date OCR may have misread lowers coverage instead", () => {
  test("a year-first date that exists once its parts are swapped (a Dutch row's cells read as one)", () => {
    const result = checkDates(documentOf(page([{ text: "Date of issue: 2024-26-01", y: 100 }], "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(0);
  });

  test("an impossible date on a line not read near-certainly", () => {
    const result = checkDates(documentOf(page([{ text: "Date of issue: 31.02.2024", y: 100, confidence: 0.93 }])), {
      now,
    });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(0);
  });

  test("an issue date after expiry with a look-alike letter in it", () => {
    const result = checkDates(documentOf(page(card("15.O4.2024", "14.04.2023"))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBeGreaterThan(0);
    expect(result.measurements?.uncertainFindings).toBe(Number(result.facts.uncertain));
  });
});

describe("how long a document is valid, and the day it ends, are not judged: national law, not ICAO 9303", () => {
  const messages = (lines: LineSpec[]) =>
    checkDates(documentOf(page(lines, "pdf")), { now }).evidence.map((e) => e.message);

  test.each([
    ["twenty years for a holder of 28", "19.12.2011", "18.12.2031", "04.03.1983"],
    ["fifteen years to the day", "15.04.2020", "15.04.2035", "12.08.1974"],
    ["an expiry four days before the issue date's anniversary", "15.11.2023", "11.11.2033", "12.08.1974"],
    ["an expiry seven months past the anniversary", "03.05.2019", "03.12.2029", "12.08.1974"],
    ["an expiry on the holder's 65th birthday", "15.04.2010", "12.08.2039", "12.08.1974"],
    ["a 29 February issue, in a common year", "29.02.2016", "28.02.2026", "12.08.1974"],
  ])("%s raises nothing", (_, issue, expiry, birth) => {
    const result = checkDates(documentOf(page(card(issue, expiry, birth), "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(1);
  });

  test("an expiry before the issue date still is text_inconsistency, whatever the validity", () => {
    expect(messages(card("15.11.2023", "11.11.2013"))).toEqual(["The issue date is after the expiry date"]);
  });

  test("an EU driving licence's numbered fields 4a. and 4b. are its issue and expiry dates", () => {
    const licence = (expiry: string): LineSpec[] => [
      { text: "3.01.07.1981 Geneva", y: 100 },
      { text: "4a.15.11.2023", y: 130 },
      { text: `4b.${expiry}`, y: 160 },
      { text: "4C.PREFECTURE DE UTRECHT", y: 190 },
    ];
    expect(messages(licence("11.11.2033"))).toEqual([]);
    expect(messages(licence("11.11.2013"))).toEqual(["The issue date is after the expiry date"]);
  });

  test("on a line OCR read below near-certainty, a date counts as read when the recogniser was sure of each digit", () => {
    const ocrMessages = (lines: LineSpec[]) =>
      checkDates(documentOf(page(lines, "ocr")), { now }).evidence.map((e) => e.message);
    const lines = card("15.11.2023", "11.11.2013").map((l) => ({ ...l, confidence: 0.96 }));
    expect(ocrMessages(lines)).toEqual([]);
    const described = lines.map((l) => ({ ...l, characters: readingsOf(l.text) }));
    expect(ocrMessages(described)).toEqual(["The issue date is after the expiry date"]);
    const oneUnsureDigit = described.map((l) =>
      l.text === "11.11.2013"
        ? {
            ...l,
            characters: readingsOf(l.text, {
              1: { probability: 0.7, alternatives: [{ character: "4", probability: 0.25 }] },
            }),
          }
        : l,
    );
    expect(ocrMessages(oneUnsureDigit)).toEqual([]);
  });
});
