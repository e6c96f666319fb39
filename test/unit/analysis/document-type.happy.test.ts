import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { classifyDocumentType } from "../../../src/analysis/document-type.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";

describe("document type", () => {
  test("a statement-like PDF is financial", async () => {
    const report = await createLocalAnalyzer().analyze({ bytes: makePdf(), format: "pdf" });
    expect(report.documentType).toBe("financial");
  });

  test("an electricity bill is a utility bill", async () => {
    const lines = [
      "Northern Power Ltd",
      "Electricity bill",
      "Billing period 01/02/2024 - 29/02/2024",
      "Meter reading 43120 kWh",
      "Amount due 82.15",
    ];
    const report = await createLocalAnalyzer().analyze({ bytes: makePdf({ lines }), format: "pdf" });
    expect(report.documentType).toBe("utility_bill");
  });

  test("a passport-page-shaped landscape photo is a passport", async () => {
    const jpeg = await makeJpeg({ width: 710, height: 500 });
    const report = await createLocalAnalyzer().analyze({ bytes: jpeg, format: "jpeg" });
    expect(report.documentType).toBe("passport");
  });

  test("an ID-1 card shape is an identity card", () => {
    expect(classifyDocumentType({ size: { width: 856, height: 540 } }).documentType).toBe("id");
  });

  test("a portrait page of A4 proportions says nothing by its shape", () => {
    expect(classifyDocumentType({ size: { width: 1240, height: 1754 } }).documentType).toBe("unknown");
  });

  test("a PDF page is a card only if it has a card's physical size", () => {
    // 85.6 x 54 mm in points vs the same ratio at A-series size.
    expect(classifyDocumentType({ size: { width: 242.6, height: 153 }, sizeInPoints: true }).documentType).toBe("id");
    expect(classifyDocumentType({ size: { width: 842, height: 531 }, sizeInPoints: true }).documentType).toBe(
      "unknown",
    );
  });

  test("a passport MRZ in the text makes a passport, whatever the shape", () => {
    const text = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10";
    expect(classifyDocumentType({ text, size: { width: 595, height: 842 }, sizeInPoints: true })).toEqual({
      documentType: "passport",
      basis: "text: passport MRZ",
    });
  });

  test("a payslip is financial", () => {
    expect(classifyDocumentType({ text: "ACME Ltd Payslip\nGross pay 3,000.00\nNet pay 2,310.00" }).documentType).toBe(
      "financial",
    );
  });

  test("a driving licence is named by its title", () => {
    expect(classifyDocumentType({ text: "DRIVING LICENCE\n1. SPECIMEN" }).documentType).toBe("drivers_license");
  });

  test("an invoice for supply and consumption is a utility bill, even read without spaces", () => {
    const clean =
      "Water services\nFACTURE / INVOICE\nSupply address: 22 Station Road\nAccount number: 9538872535\nConsumption peak hours 79.41\nNetwork fee 13.30\nTotal due 257.42";
    expect(classifyDocumentType({ text: clean }).documentType).toBe("utility_bill");
    const ocr =
      "StadtwerkeBirdyland\nFACTURE/INVOICE\nSupplyaddress\nAccountnumber\nConsumptionoff-peakhours\nTotaldue 239.04";
    expect(classifyDocumentType({ text: ocr }).documentType).toBe("utility_bill");
  });

  test("a long title or supply term read with one letter wrong still names the paper", () => {
    // OCR of blurred phone photos (imagemagick/photo corpus family).
    const payslip = [
      "Nordlicht Logistik GmbH",
      "Rem Lois Adnen Vsse",
      "BUULETINDEPAIE",
      "uppaes 194.18",
      "seccaie 200.52",
      "ksnce cheoge 69.75",
      "Snebn 2606.06",
      "Netapoyet 2324#4",
    ].join("\n");
    const slip = classifyDocumentType({ text: payslip });
    expect(slip.documentType).toBe("financial");
    expect(slip.basis).toContain("~BULLETINDEPAIE");
    const bill =
      "FACTURE\nDescription Montant(EUR)\nAbonnement 58.57\nConsonumatonheutes pleines 81.94\nTVA20 48.78\nToaa payer292.66";
    expect(classifyDocumentType({ text: bill }).documentType).toBe("utility_bill");
    // Two letters wrong, or a short word one letter off, is another text.
    expect(classifyDocumentType({ text: "BUULETINDEPAXE\n194.18" }).documentType).toBe("unknown");
  });

  test("an account number alone does not make a bank statement, nor an invoice a utility bill", () => {
    const type = classifyDocumentType({ text: "Account number 1234\nInvoice date 17/02/2025\nTotal due 12.00" });
    expect(type.documentType).toBe("financial");
    expect(type.basis).toStartWith("text: financial (invoice)");
  });

  test("a bank statement and a payslip are financial in French and English, spaced or not", () => {
    expect(
      classifyDocumentType({ text: "RELEVEDECOMPTE/ACCOUNTSTATEMENT\nAccount holder: CHLOE RUSSO\nIBAN: FR76 9726" })
        .documentType,
    ).toBe("financial");
    expect(
      classifyDocumentType({ text: "BULLETINDEPAIE/PAYSLIP\nEmployee\nPay period 01/2025\nBasesalary 3,193.62" })
        .documentType,
    ).toBe("financial");
  });

  test("a European licence is named in any of its languages, with or without spaces", () => {
    expect(classifyDocumentType({ text: "EU\nPERMISDECONDUIRE\n1.SMITH\n9.A1/B" }).documentType).toBe(
      "drivers_license",
    );
    expect(classifyDocumentType({ text: "FÜHRERSCHEIN\n1. MÜLLER" }).documentType).toBe("drivers_license");
  });

  test("a licence on an ID-1 card is a licence, not an identity card, whatever its shape", () => {
    expect(
      classifyDocumentType({
        text: "DRIVING LICENCE · RIJBEWIJS\n4c. PREFECTURE DE LYON",
        size: { width: 856, height: 540 },
      }).documentType,
    ).toBe("drivers_license");
  });

  test("an identity card is named by its title even when OCR merges the words", () => {
    expect(
      classifyDocumentType({ text: "REPUBLIQUE DU PILEA\nCARTENATIONALED'DENTITEN°:KX1591578\nNom:ROMANO" })
        .documentType,
    ).toBe("id");
  });

  test("a passport page names itself in the visual zone when the MRZ is not read", () => {
    expect(
      classifyDocumentType({ text: "PASSEPORT\nREPUBLIQUEDEGALATHEE\nPASSPORT\nNom / Surname(1)" }).documentType,
    ).toBe("passport");
  });

  test("one weak word is not enough to name a type", () => {
    expect(classifyDocumentType({ text: "Salary" }).documentType).toBe("unknown");
  });

  test("the back of an identity card is named by its TD1 zone even when OCR misreads the first line", () => {
    const back =
      "Behorde/Authority/Autorite\n1<D<<L06628346<<<<<<<<<<<<<<<\n6401023F2710084D<<<<<<<<<<<<<8\nLAMBERT<<EMMA<MANON<MIA<<<<<<<";
    expect(classifyDocumentType({ text: back, size: { width: 1287, height: 914 } })).toEqual({
      documentType: "id",
      basis: "text: TD1 card MRZ",
    });
    const misreadNationality =
      "I<1TAYL09694009<<<<<<<<<\n9404128M28050471TA<<<<<<<<<<<6\nBERNARD<<PABLO<<<<<<<<<<<<<<<<";
    expect(classifyDocumentType({ text: misreadNationality, size: { width: 1289, height: 916 } }).documentType).toBe(
      "id",
    );
  });

  test("a passport's second MRZ line is not taken for a card's", () => {
    const text = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10";
    expect(classifyDocumentType({ text }).documentType).toBe("passport");
  });
});
