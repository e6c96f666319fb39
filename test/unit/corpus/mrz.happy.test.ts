import { describe, expect, test } from "bun:test";
import { parse } from "mrz";
import { checkDigit, composeMrz } from "../../../scripts/corpus/identity/mrz.ts";
import type { Person } from "../../../scripts/corpus/identity/person.ts";

const person: Person = {
  sex: "F",
  surname: "Eriksson",
  givenNames: ["Anna", "María"],
  birthDate: new Date(Date.UTC(1974, 7, 12)),
  birthPlace: "Paris",
  address: ["1 rue de la Paix", "75002 Paris", ""],
  heightCm: 170,
  eyes: "BLUE",
};
const data = {
  documentCode: "I",
  issuingState: "FRA",
  documentNumber: "D23145890",
  nationality: "FRA",
  birthDate: person.birthDate,
  sex: "F" as const,
  expiryDate: new Date(Date.UTC(2032, 3, 15)),
  optional: "",
};

describe("MRZ composition", () => {
  test("check digits follow ICAO 9303's 7-3-1 weighting (its own worked examples)", () => {
    expect(checkDigit("L898902C3")).toBe("6");
    expect(checkDigit("740812")).toBe("2");
    expect(checkDigit("120415")).toBe("9");
  });

  test("composed TD1, TD2 and TD3 zones parse as valid with the mrz package", () => {
    for (const format of ["TD1", "TD2", "TD3"] as const) {
      const lines = composeMrz(format, person, { ...data, documentCode: format === "TD3" ? "P" : "I" });
      const result = parse(lines);
      expect(result.format).toBe(format);
      expect(result.valid).toBe(true);
      expect(result.fields.lastName).toBe("ERIKSSON");
      expect(result.fields.birthDate).toBe("740812");
    }
  });
});
