import { describe, expect, test } from "bun:test";
import { checkMrz } from "../../../../src/analysis/content/mrz.ts";
import { documentOf, frenchId, page, readingsOf, td1, td2, td3, type LineSpec, type Person } from "./fixtures.ts";

const now = new Date("2025-06-01T12:00:00Z");
const anna: Person = {
  surname: "ERIKSSON",
  given: "ANNA MARIA",
  number: "L898902C3",
  birth: "740812",
  expiry: "340415",
  state: "SWE",
  optional: "ZE184226B",
};

const visualZone = (birth = "12 AUG/AOÛT 74", confidence = 0.98): LineSpec[] => [
  { text: "Passport No. / No du passeport", x: 600, y: 100, confidence },
  { text: "L898902C3", x: 600, y: 125, confidence },
  { text: "Surname / Nom", y: 200, confidence },
  { text: "ERIKSSON", y: 225, confidence },
  { text: "Given names / Prénoms", y: 260, confidence },
  { text: "ANNA MARIA", y: 285, confidence },
  { text: "Date of birth / Date de naissance", y: 320, confidence },
  { text: birth, y: 345, confidence },
];

const zoneLines = (lines: string[], confidence = 0.98): LineSpec[] =>
  lines.map((text, i) => ({ text, y: 1000 + i * 30, confidence }));
const flagsOf = (result: ReturnType<typeof checkMrz>) => [...new Set(result.evidence.map((e) => e.flag))];

/** Changes the birth date in the zone and leaves the check digits as printed. */
function withBirthDate(lines: string[], layout: "TD1" | "TD2" | "TD3", birth: string): string[] {
  const at = layout === "TD1" ? { line: 1, start: 0 } : { line: 1, start: 13 };
  return lines.map((line, i) => (i === at.line ? line.slice(0, at.start) + birth + line.slice(at.start + 6) : line));
}

describe("a forged MRZ", () => {
  test.each([
    ["TD3", td3(anna)],
    ["TD2", td2(anna)],
    ["TD1", td1(anna)],
  ] as const)(
    "in the %s layout, with a changed birth date and the old check digits, raises mrz_checksum_invalid",
    (layout, lines) => {
      const forged = withBirthDate(lines, layout, "840812");
      const result = checkMrz(documentOf(page(zoneLines(forged))), { now });
      expect(flagsOf(result)).toEqual(["mrz_checksum_invalid"]);
      const fields = result.evidence.map((e) => e.message);
      expect(fields.some((m) => m.startsWith("Birth date check digit"))).toBe(true);
      expect(result.evidence[0]!.box).toBeDefined();
    },
  );

  test("read from a PDF text layer raises mrz_checksum_invalid too", () => {
    const forged = withBirthDate(td3(anna), "TD3", "840812");
    expect(flagsOf(checkMrz(documentOf(page(zoneLines(forged), "pdf")), { now }))).toEqual(["mrz_checksum_invalid"]);
  });

  test("with a changed document number and the old check digits raises mrz_checksum_invalid despite OCR corrections", () => {
    const [upper, lower] = td3(anna);
    const forged = [upper!, `L898907C3${lower!.slice(9)}`];
    expect(flagsOf(checkMrz(documentOf(page(zoneLines(forged))), { now }))).toEqual(["mrz_checksum_invalid"]);
  });

  test("with recomputed check digits passes the checksum but mismatches the visual birth date", () => {
    const forged = td3({ ...anna, birth: "840812" });
    const result = checkMrz(documentOf(page([...visualZone(), ...zoneLines(forged)])), { now });
    expect(flagsOf(result)).toEqual(["mrz_mismatch"]);
    expect(result.evidence[0]!.message).toContain("birthDate");
    expect(result.evidence[0]!.measured).toBe("12 AUG/AOÛT 74");
    expect(result.evidence[0]!.threshold).toBe("840812");
  });

  test("with another surname in the MRZ mismatches the visual name", () => {
    const forged = td3({ ...anna, surname: "ERIKSEN" });
    const result = checkMrz(documentOf(page([...visualZone(), ...zoneLines(forged)])), { now });
    expect(flagsOf(result)).toEqual(["mrz_mismatch"]);
    expect(result.evidence[0]!.message).toContain("name");
  });

  test("names the zone leaves out or orders otherwise are no mismatch; a name changed on one side still is", () => {
    const withVisualNames = (surname: string, given: string) =>
      visualZone().map((l) =>
        l.text === "ERIKSSON" ? { ...l, text: surname } : l.text === "ANNA MARIA" ? { ...l, text: given } : l,
      );
    const judged = (surname: string, given: string, person: Person) =>
      flagsOf(checkMrz(documentOf(page([...withVisualNames(surname, given), ...zoneLines(td3(person))])), { now }));
    // A patronymic the page prints and the zone omits (Azerbaijani passports).
    expect(judged("ERIKSSON", "ANNA MARIA OGLU", anna)).toEqual([]);
    // No surname: the page prints the given name first, the zone the other way round.
    expect(judged("MARIA ERIKSSON", "ANNA", { ...anna, surname: "ANNA", given: "MARIA ERIKSSON" })).toEqual([]);
    // A narrow I lost in the zone, a name cut short on the page: how OCR reads names short.
    expect(judged("ERIKSSON", "ANNA MARIA", { ...anna, given: "ANNA MARA" })).toEqual([]);
    expect(judged("ERIKSSON", "ANNA MARI", anna)).toEqual([]);
    expect(judged("ERIKSSON", "ANNA MARIA", { ...anna, given: "HANNA MARIA" })).toEqual(["mrz_mismatch"]);
  });

  test("a label line read unsurely still gives its value, where the recogniser's doubt makes its words labels", () => {
    // As OCR read a photographed passport: "Nom/Surname" as "Non/Surname(1)" at 0.89, its last
    // n at 0.57 with m at 0.38. The value below, read at 0.99, was pasted from another card.
    const surnameUnder = (runnerUp: string): LineSpec[] => {
      const label = "Non/Surname(1)";
      const characters = readingsOf(label, {
        2: { probability: 0.57, alternatives: [{ character: runnerUp, probability: 0.38 }] },
      });
      return [
        { text: label, y: 200, confidence: 0.89, characters },
        { text: "BECKER", y: 225 },
      ];
    };
    const judged = (lines: LineSpec[]) =>
      checkMrz(documentOf(page([...lines, ...zoneLines(td3(anna))])), { now }).evidence.map((e) => e.message);
    expect(judged(surnameUnder("m")).some((m) => m.includes("surname"))).toBe(true);
    // A runner-up that makes no label leaves NON a word of its own, which may be the value or a
    // label in a language not listed: nothing is taken from the line below.
    expect(judged(surnameUnder("#"))).toEqual([]);
  });

  test("labels a photo's OCR misread still give their values, and a changed one is found", () => {
    // As OCR read a printed and photographed passport: RN read as M, R as N, a degree sign lost.
    const photographed = (surname: string, birth: string, number: string): LineSpec[] => [
      { text: "Passeport n/ Passportno", x: 600, y: 100 },
      { text: number, x: 600, y: 125 },
      { text: "Nom/ Sumame()", y: 200 },
      { text: surname, y: 225 },
      { text: "Date denaissance/ Dateofbinth(4)", y: 320 },
      { text: birth, y: 345 },
    ];
    const judged = (lines: LineSpec[]) =>
      checkMrz(documentOf(page([...lines, ...zoneLines(td3(anna))])), { now }).evidence.map((e) => e.message);
    expect(judged(photographed("ERIKSSON", "12.08.1974", "L898902C3"))).toEqual([]);
    for (const [lines, field] of [
      [photographed("ERIKSEN", "12.08.1974", "L898902C3"), "surname"],
      [photographed("ERIKSSON", "12.08.1984", "L898902C3"), "birthDate"],
      [photographed("ERIKSSON", "12.08.1974", "L898907C3"), "documentNumber"],
    ] as const)
      expect(judged(lines).some((m) => m.includes(field))).toBe(true);
    // Two letters off is another word, which may be the value or a label in a language not
    // listed: nothing is taken from the line below it.
    expect(
      judged([
        { text: "Nom/ Sunane()", y: 200 },
        { text: "ERIKSEN", y: 225 },
      ]),
    ).toEqual([]);
    expect(
      judged([
        { text: "Nom/ Sumane()", y: 200 },
        { text: "ERIKSEN", y: 225 },
      ]),
    ).not.toEqual([]);
  });

  test("an identity card's number after its title, its degree sign lost, is compared with the zone", () => {
    const card = (line: string) =>
      checkMrz(documentOf(page([{ text: line, y: 100 }, ...zoneLines(td2(anna))])), { now }).evidence.map(
        (e) => e.message,
      );
    expect(card("CARTENATIONALED'IDENTITEN:L898902C3")).toEqual([]);
    expect(card("CARTE NATIONALE D'IDENTITÉ N*: L898907C3").some((m) => m.includes("documentNumber"))).toBe(true);
    expect(card("CARTENATIONALED'IDENTITEN:L898907C3").some((m) => m.includes("documentNumber"))).toBe(true);
    expect(card("CARTENATIONALED'DENTITEN°:L898907C3").some((m) => m.includes("documentNumber"))).toBe(true);
    // A photo's OCR loses the apostrophe too, or the whole "°:" before the number.
    expect(card("CARTENATIONALEDIDENTITEN:L898902C3")).toEqual([]);
    expect(card("CARTENATIONALEDIDENTITEN:L898907C3").some((m) => m.includes("documentNumber"))).toBe(true);
    expect(card("CARTENATIONALEDIDENTITENL898902C3")).toEqual([]);
    expect(card("CARTENATIONALEDIDENTITENL898907C3").some((m) => m.includes("documentNumber"))).toBe(true);
  });

  test("with another document number, recomputed, mismatches the visual document number", () => {
    const forged = td3({ ...anna, number: "L898907C3" });
    const result = checkMrz(documentOf(page([...visualZone(), ...zoneLines(forged)])), { now });
    expect(flagsOf(result)).toEqual(["mrz_mismatch"]);
    expect(result.evidence[0]!.message).toContain("documentNumber");
  });
});

describe("what was not read confidently never accuses", () => {
  test("a check digit failure on low-confidence OCR lines raises nothing and lowers coverage", () => {
    const forged = withBirthDate(td3(anna), "TD3", "840812");
    const result = checkMrz(documentOf(page(zoneLines(forged, 0.7))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBeLessThan(1);
  });

  test("a visual zone read with low confidence is not compared", () => {
    const forged = td3({ ...anna, birth: "840812" });
    const result = checkMrz(documentOf(page([...visualZone("12 AUG/AOÛT 74", 0.6), ...zoneLines(forged)])), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("a visual birth date with a look-alike letter in a digit is not compared", () => {
    const forged = td3({ ...anna, birth: "840812" });
    const result = checkMrz(documentOf(page([...visualZone("12.O8.1974"), ...zoneLines(forged)])), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("a UTO specimen whose visual zone differs from its MRZ raises nothing", () => {
    const specimen = td3({ ...anna, state: "UTO", birth: "840812" });
    expect(flagsOf(checkMrz(documentOf(page([...visualZone(), ...zoneLines(specimen)])), { now }))).toEqual([]);
  });
});

describe("a forged French 2x36 identity card", () => {
  const corinne = { surname: "BERTHIER", given: "CORINNE", number: "880692310285", birth: "650408" };

  test("with a changed birth date and the old check digits raises mrz_checksum_invalid", () => {
    const [first, second] = frenchId(corinne);
    const forged = [first!, second!.replace("650408", "750408")];
    const result = checkMrz(documentOf(page(zoneLines(forged))), { now });
    expect(flagsOf(result)).toEqual(["mrz_checksum_invalid"]);
    expect(result.evidence.some((e) => e.message.startsWith("Birth date check digit"))).toBe(true);
  });

  test("with another surname, recomputed, mismatches the visual name", () => {
    const forged = frenchId({ ...corinne, surname: "BERTIER" });
    const visual: LineSpec[] = [
      { text: "Nom : BERTHIER", y: 100 },
      { text: "Prénom(s) : CORINNE", y: 140 },
    ];
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines(forged)])), { now }))).toEqual(["mrz_mismatch"]);
  });
});
