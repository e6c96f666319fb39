import { describe, expect, test } from "bun:test";
import { classifyDocumentType } from "../../../src/analysis/document-type.ts";
import type { DocumentText, TextLine } from "../../../src/analysis/content/text.ts";
import {
  IDENTITY,
  INVOICES,
  NEGATIVES,
  OTHER_LAYOUTS,
  PAYSLIPS,
  RECEIPTS,
  STATEMENTS,
  TAX_FORMS,
  UTILITY_BILLS,
  type Sample,
} from "./document-type-samples.ts";

const judged = (samples: Sample[]) => {
  for (const { name, type, kind, text } of samples) {
    test(`${name} is ${type}${kind ? ` (${kind})` : ""}`, () => {
      const result = classifyDocumentType({ text });
      expect(result.documentType).toBe(type);
      if (kind) expect(result.basis).toStartWith(`text: financial (${kind})`);
    });
  }
};

describe("document type in six languages", () => {
  describe("invoices", () => judged(INVOICES));
  describe("receipts", () => judged(RECEIPTS));
  describe("tax forms", () => judged(TAX_FORMS));
  describe("payslips", () => judged(PAYSLIPS));
  describe("bank statements", () => judged(STATEMENTS));
  describe("utility bills", () => judged(UTILITY_BILLS));
  describe("identity documents", () => judged(IDENTITY));
  describe("what only mentions the others, and what is none of them", () => judged(NEGATIVES));
  describe("other layouts and phrasings", () => judged(OTHER_LAYOUTS));
});

/** OCR lines placed on a page: each cell its own line, as the sidecar returns a receipt. */
const ocrPage = (rows: string[][]): DocumentText => {
  const lines: TextLine[] = rows.flatMap((cells, y) =>
    cells.map((text, x) => ({
      text,
      box: [20 + x * 300, 20 + y * 40, 200, 30] as TextLine["box"],
      confidence: 0.95,
      source: "ocr" as const,
    })),
  );
  return { pages: [{ page: 1, width: 640, height: 40 * rows.length + 40, lines }] };
};

describe("document type from OCR lines", () => {
  test("a till receipt whose labels and amounts were read as separate lines is a receipt", () => {
    const document = ocrPage([
      ["SPAR"],
      ["BREAD", "1.20"],
      ["MILK", "0.95"],
      ["APPLES", "2.10"],
      ["TOTAL", "4.25"],
      ["CASH", "5.00"],
      ["CHANGE", "0.75"],
    ]);
    const result = classifyDocumentType({ document });
    expect(result.documentType).toBe("financial");
    expect(result.basis).toStartWith("text: financial (receipt)");
    expect(result.basis).toContain("change given (CHANGE)");
  });

  test("a payment slip's rows of digits and filler are no identity zone", () => {
    const document = ocrPage([
      ["FACTURE"],
      ["Montant TTC", "74,18"],
      ["Total HT", "61,82"],
      ["I<0000123456789<<<<<<<<<<<<<<<"],
      ["0000074180000000123456789<<<<<"],
      ["<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<"],
    ]);
    expect(classifyDocumentType({ document }).documentType).toBe("financial");
  });

  test("a card's zone read by OCR names an identity card, however short the holder's surname", () => {
    const document = ocrPage([
      ["I<UTOD231458907<<<<<<<<<<<<<<<"],
      ["7408122F1204159UTO<<<<<<<<<<<6"],
      ["LI<<WEI<<<<<<<<<<<<<<<<<<<<<<<"],
    ]);
    expect(classifyDocumentType({ document })).toEqual({ documentType: "id", basis: "mrz: TD1 identity card zone" });
  });

  test("a visa's zone names no identity type", () => {
    const document = ocrPage([
      ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"],
      ["L8988901C4XXX4009078F96121096ZE184226B<<<<<<"],
    ]);
    expect(classifyDocumentType({ document }).documentType).toBe("unknown");
  });
});

describe("document type: what decided is said", () => {
  test("a utility bill's basis lists its supply and its bill terms, each word once", () => {
    const result = classifyDocumentType({ text: "Stromrechnung\nVerbrauch 2.525 kWh\nRechnungsbetrag 953,33 €" });
    expect(result).toEqual({
      documentType: "utility_bill",
      basis:
        "text: utility bill: supply (STROMRECHNUNG), supply terms (VERBRAUCH), metering (KWH), amount due (RECHNUNGSBETRAG)",
    });
  });

  test("a bank statement that lists electricity payments stays a statement", () => {
    const result = classifyDocumentType({
      text: "Kontoauszug\nAlter Kontostand 1.980,12\n01.10. Lastschrift Stadtwerke Strom -64,00\nNeuer Kontostand 4.456,12",
    });
    expect(result.documentType).toBe("financial");
    expect(result.basis).toStartWith("text: financial (statement)");
  });

  test("an undecided text says what little it saw", () => {
    expect(classifyDocumentType({ text: "HM Passport Office\nDear Mr Smith,\nSurname: SMITH" })).toEqual({
      documentType: "unknown",
      basis:
        "text: too little to name a type: passport title (PASSPORT), letter (DEAR), identity field label (SURNAME)",
    });
  });

  test("a Spanish company's denominación social names no payslip", () => {
    const result = classifyDocumentType({
      text: "Denominación social: Reformas Ortega S.L.\nFACTURA\nTotal a pagar 774,40 €",
    });
    expect(result).toEqual({
      documentType: "financial",
      basis: "text: financial (invoice): invoice title (FACTURA), amount due (TOTALAPAGAR)",
    });
  });

  test("a date is no amount: payment words beside dates make no receipt", () => {
    expect(
      classifyDocumentType({ text: "VISA 2025.10.01\nCASH 12.08.1964\nTOTAL 01.02.2025\nCHANGE 31.12.2025" })
        .documentType,
    ).toBe("unknown");
  });

  test("a card labelled in English beside a language not read here is named by its shape", () => {
    const text =
      "REPUBLIKA E SHQIPERISE\nmbiemri/surname\nAGANI\nemri/given name\nADNAN\nshtetesia/nationality\nvendlindja/place of birth\ndatelindja/date of birth\n20-11-1991";
    expect(classifyDocumentType({ text, size: { width: 2167, height: 1360 } })).toEqual({
      documentType: "id",
      basis:
        "shape: aspect 1.593 (ID-1 card), identity field label (SURNAME), identity field label (GIVENNAME), identity field label (NATIONALITY), identity field label (PLACEOFBIRTH), identity field label (DATEOFBIRTH)",
    });
    expect(classifyDocumentType({ text }).documentType).toBe("unknown");
  });

  test("identity documents are named by their titles in other European languages", () => {
    const cases: [string, string][] = [
      ["LETËRNJOFTIM\nREPUBLIKA E SHQIPËRISË", "id"],
      ["SLOVENSKÁ REPUBLIKA\nOBČIANSKY PREUKAZ", "id"],
      ["SUOMI FINLAND\nHENKILÖKORTTI", "id"],
      ["RZECZPOSPOLITA POLSKA\nDOWÓD OSOBISTY", "id"],
      ["MAGYARORSZÁG\nSZEMÉLYI IGAZOLVÁNY", "id"],
      ["REPUBLIKA SRBIJA\nLIČNA KARTA", "id"],
      ["RZECZPOSPOLITA POLSKA\nPASZPORT", "passport"],
      ["AZƏRBAYCAN RESPUBLİKASI\nPASPORT", "passport"],
      ["ČESKÁ REPUBLIKA\nCESTOVNÍ PAS", "passport"],
      ["REPUBLIKA HRVATSKA\nPUTOVNICA", "passport"],
    ];
    for (const [text, type] of cases) expect([text, classifyDocumentType({ text }).documentType]).toEqual([text, type]);
  });

  test("a page of text that names nothing is unknown, whatever its shape", () => {
    const prose = Array.from(
      { length: 12 },
      () => "We write to tell you about changes to our opening hours over the holiday period.",
    ).join("\n");
    expect(classifyDocumentType({ text: prose, size: { width: 1754, height: 1240 } }).documentType).toBe("unknown");
  });
});
