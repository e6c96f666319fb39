import { describe, expect, test } from "bun:test";
import { findDates, inferOrder, readings, toIsoDate } from "../../../../src/analysis/content/read-date.ts";

const options = { referenceYear: 2025 };

/** Every date a line holds, read in the order the line itself implies. */
const read = (text: string): string[] => {
  const matches = findDates(text);
  const order = inferOrder(matches);
  return matches.flatMap((m) => readings(m, order, options).map(toIsoDate));
};

describe("read-date: numeric dates", () => {
  test.each([
    ["Rechnungsdatum: 31.12.2025", "2025-12-31"],
    ["Date de facture : 31/12/2025", "2025-12-31"],
    ["Factuurdatum 31-12-2025", "2025-12-31"],
    ["Statement date 2025-12-31", "2025-12-31"],
    ["Pay date 12/31/2025", "2025-12-31"],
    ["Data 31.12.25", "2025-12-31"],
  ])("%s", (text, iso) => {
    expect(read(text)).toEqual([iso]);
  });

  test("a day and month both under 13 keep both readings where nothing tells the order", () => {
    const [match] = findDates("Invoice date 05/06/2025");
    expect(readings(match!, inferOrder([match!]), options).map(toIsoDate)).toEqual(["2025-06-05", "2025-05-06"]);
  });

  test("12/31/2025 is read month first only because no month is 31", () => {
    const [match] = findDates("12/31/2025");
    expect(readings(match!, "dmy", options)).toEqual([]);
    expect(readings(match!, null, options).map(toIsoDate)).toEqual(["2025-12-31"]);
  });
});

describe("read-date: month names in six languages", () => {
  test.each([
    ["Statement period 1st December 2025", "2025-12-01"],
    ["Dated December 31, 2025", "2025-12-31"],
    ["Signed this 12th of May 2025", "2025-05-12"],
    ["Dated December 31st, 2025", "2025-12-31"],
    ["Leipzig, 31. Dezember 2025", "2025-12-31"],
    ["Kontoauszug vom 3. März 2025", "2025-03-03"],
    ["Stand 14. Mrz 2025", "2025-03-14"],
    ["Paris, le 31 déc. 2025", "2025-12-31"],
    ["Échéance : 1er février 2025", "2025-02-01"],
    ["Relevé du 15 août 2025", "2025-08-15"],
    ["Amsterdam, 31 december 2025", "2025-12-31"],
    ["Factuurdatum 4 mrt 2025", "2025-03-04"],
    ["Vervaldatum 12 mei 2025", "2025-05-12"],
    ["Madrid, 31 de diciembre de 2025", "2025-12-31"],
    ["Fecha: 30 de septiembre de 2025", "2025-09-30"],
    ["Roma, 31 dicembre 2025", "2025-12-31"],
    ["Scadenza 15 giugno 2025", "2025-06-15"],
    ["Data 2 ottobre 2025", "2025-10-02"],
  ])("%s", (text, iso) => {
    expect(read(text)).toEqual([iso]);
  });

  test("a word that only begins like a month is no month", () => {
    expect(findDates("2 MAYONNAISE 12.99")).toEqual([]);
    expect(findDates("3 MARKET 2024")).toEqual([]);
  });

  test("an abbreviation two months share names neither", () => {
    expect(findDates("14 JUI 2025")).toEqual([]);
  });
});

describe("read-date: the order a document writes its dates in", () => {
  test("a document that names its months after the day reads 05/06/2025 day first", () => {
    expect(inferOrder(findDates("Date: 31 December 2025\nDue 05/06/2025"))).toBe("dmy");
  });

  test("a document that names its months before the day is American and reads 05/06/2025 month first", () => {
    expect(inferOrder(findDates("Date: December 31, 2025\nDue 05/06/2025"))).toBe("mdy");
  });

  test("numbers that can only be read one way outweigh named dates", () => {
    expect(inferOrder(findDates("December 31, 2025\n25/06/2025\n26/06/2025"))).toBe("dmy");
  });
});
