import { describe, expect, test } from "bun:test";
import { createLocalAnalyzer } from "../../../src/analysis/analyze";
import { classifyDocumentType } from "../../../src/analysis/document-type";
import { makeJpeg, makePdf } from "../../helpers/fixtures";

describe("document type", () => {
  test("a statement-like PDF is financial", async () => {
    const report = await createLocalAnalyzer().analyze({ bytes: makePdf(), format: "pdf" });
    expect(report.documentType).toBe("financial");
  });

  test("an electricity bill is a utility bill", async () => {
    const lines = ["Northern Power Ltd", "Electricity bill", "Billing period 01/02/2024 - 29/02/2024", "Meter reading 43120 kWh", "Amount due 82.15"];
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
    expect(classifyDocumentType({ size: { width: 842, height: 531 }, sizeInPoints: true }).documentType).toBe("unknown");
  });

  test("a passport MRZ in the text makes a passport, whatever the shape", () => {
    const text = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10";
    expect(classifyDocumentType({ text, size: { width: 595, height: 842 }, sizeInPoints: true })).toEqual({
      documentType: "passport",
      basis: "text: passport MRZ",
    });
  });

  test("a payslip is financial", () => {
    expect(classifyDocumentType({ text: "ACME Ltd Payslip\nGross pay 3,000.00\nNet pay 2,310.00" }).documentType).toBe("financial");
  });

  test("a driving licence is named by its title", () => {
    expect(classifyDocumentType({ text: "DRIVING LICENCE\n1. SPECIMEN" }).documentType).toBe("drivers_license");
  });
});
