// The field reader's labels in the languages identity documents print, as OCR returns them
// (the recogniser has no Ğ, Ş, dotless I or Ł: "Doğum tarihi" comes back "Dogum tarihi"), and
// the date rules they feed: a card is judged by its labelled dates whatever its language.
import { describe, expect, test } from "bun:test";
import { checkDates } from "../../../../src/analysis/content/dates.ts";
import { type FieldKind, labelledValues } from "../../../../src/analysis/content/fields.ts";
import { documentOf, page } from "./fixtures.ts";

const now = new Date("2025-06-01T00:00:00Z");

/** A card's labels, each above its value, as [label, value] pairs. */
const card = (fields: [string, string][]) =>
  page(
    fields.flatMap(([label, value], i) => [
      { text: label, y: 100 + i * 70 },
      { text: value, y: 125 + i * 70 },
    ]),
  );

const read = (fields: [string, string][]) =>
  labelledValues(card(fields)).map(({ kind, text }) => [kind, text] as const);

type Field = [label: string, value: string, kind: FieldKind];

const CARDS: { language: string; fields: Field[] }[] = [
  {
    language: "Portuguese",
    fields: [
      ["Apelido(s)", "SILVA", "surname"],
      ["Nome(s)", "ANA MARIA", "givenNames"],
      ["N.º Documento", "12345678", "documentNumber"],
      ["Data de Nascimento", "12 08 1974", "birthDate"],
      ["Data de Emissão", "15 04 2020", "issueDate"],
      ["Data de Validade", "14 04 2030", "expiryDate"],
    ],
  },
  {
    language: "Turkish, as read without Ğ, Ş and the dotless I",
    fields: [
      ["Seri No", "A12B34567", "documentNumber"],
      ["Dogum Tarihi", "12.08.1974", "birthDate"],
      ["Veriliş Tarihi", "15.04.2020", "issueDate"],
      ["Son Gecerlilik", "14.04.2030", "expiryDate"],
    ],
  },
  {
    language: "Dutch",
    fields: [
      ["Voornamen", "Anna Maria", "givenNames"],
      ["Documentnummer", "SPECI2014", "documentNumber"],
      ["Geboortedatum", "12 AUG 1974", "birthDate"],
      ["Datum van afgifte", "15 APR 2020", "issueDate"],
      ["Geldig tot", "14 APR 2030", "expiryDate"],
    ],
  },
  {
    language: "Polish, as read without Ł",
    fields: [
      ["Nazwisko", "KOWALSKA", "surname"],
      ["Imiona", "ANNA", "givenNames"],
      ["Numer dokumentu", "ABC123456", "documentNumber"],
      ["Data urodzenia", "12.08.1974", "birthDate"],
      ["Data wydania", "15.04.2020", "issueDate"],
      ["Termin waznosci", "14.04.2030", "expiryDate"],
    ],
  },
];

describe("labels in Portuguese, Turkish, Dutch and Polish", () => {
  for (const { language, fields } of CARDS) {
    test(`${language}: every field is read under its own label`, () => {
      expect(read(fields.map(([label, value]) => [label, value]))).toEqual(
        fields.map(([, value, kind]) => [kind, value]),
      );
    });
  }

  test("other spellings and abbreviations", () => {
    expect(read([["Data nasc.", "12.08.1974"]])).toEqual([["birthDate", "12.08.1974"]]);
    // Turkish and Azerbaijani "Soyadı" is left to the English "Surname" printed beside it (fields.ts).
    expect(read([["Soyadi", "YILMAZ"]])).toEqual([]);
    // A Dutch invoice's due date ("Vervaldatum") is no document's expiry: not a label.
    expect(read([["Vervaldatum", "22-9-2022"]])).toEqual([]);
    expect(read([["Data wydania", "15.04.2020"]])).toEqual([["issueDate", "15.04.2020"]]);
    expect(read([["Belge No", "A12B34567"]])).toEqual([["documentNumber", "A12B34567"]]);
    expect(read([["Nº do Passaporte", "CB123456"]])).toEqual([["documentNumber", "CB123456"]]);
  });

  test("a place of birth, a nationality or a signature is never the value of the label above it", () => {
    expect(
      read([
        ["Nome(s)", "ANA"],
        ["Local de nascimento", "LISBOA"],
      ]),
    ).toEqual([["givenNames", "ANA"]]);
    expect(
      read([
        ["Seri No", "A12B34567"],
        ["Uyrugu", "TUR"],
        ["Dogum Yeri", "ANKARA"],
      ]),
    ).toEqual([["documentNumber", "A12B34567"]]);
    expect(
      read([
        ["Nazwisko", "KOWALSKA"],
        ["Obywatelstwo", "POLSKIE"],
      ]),
    ).toEqual([["surname", "KOWALSKA"]]);
  });

  test("a card whose dates agree raises nothing, in each language", () => {
    for (const { fields } of CARDS) {
      expect(checkDates(documentOf(card(fields.map(([l, v]) => [l, v]))), { now }).evidence).toEqual([]);
    }
  });

  test("a Turkish card born in the future, a Portuguese one issued after it expires", () => {
    const born = checkDates(
      documentOf(
        card([
          ["Dogum Tarihi", "31.03.2030"],
          ["Son Gecerlilik", "14.04.2031"],
        ]),
      ),
      { now },
    );
    expect(born.evidence.map((e) => e.message)).toEqual(["A date is after the analysis date"]);
    const reversed = checkDates(
      documentOf(
        card([
          ["Data de Emissão", "15 04 2024"],
          ["Data de Validade", "14 04 2023"],
        ]),
      ),
      { now },
    );
    expect(reversed.evidence.map((e) => e.message)).toEqual(["The issue date is after the expiry date"]);
  });
});
