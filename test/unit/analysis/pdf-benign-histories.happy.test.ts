// Genuine documents whose history a careless detector reads as forgery: each is built as
// the tool that wrote it writes it, and each has a forged twin that must still be caught.
import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { DEFAULT_LIMITS, startBudget } from "../../../src/analysis/detector.ts";
import { inspectPdf } from "../../../src/analysis/pdf/inspect-pdf.ts";
import { editPdfIncrementally, makePdf, xmpPacket } from "../../helpers/fixtures.ts";
import {
  FACTUR_X_XML,
  linearisedPdf,
  metadataOnlySaveInObjectStreams,
  ocrLayerAddedIncrementally,
  ocrLayerOverStamp,
  ocrScanInOneSave,
  pdfaConversion,
  scannedPdf,
  signedRevision,
  withEmbeddedFile,
} from "./benign-pdfs.ts";

const inspect = async (bytes: Uint8Array) => {
  const { detectors } = await inspectPdf(bytes, DEFAULT_LIMITS, startBudget(20_000));
  const evidence = detectors.flatMap((d) => d.evidence);
  return {
    flags: [...new Set(evidence.map((e) => e.flag))],
    evidence,
    facts: (name: string) => detectors.find((d) => d.detector === name)!.facts,
  };
};

describe("an e-invoice's embedded XML is the standard, not active content", () => {
  test.each(["factur-x.xml", "ZUGFeRD-invoice.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml"])(
    "%s raises nothing",
    async (name) => {
      const result = await inspect(withEmbeddedFile(makePdf(), name, FACTUR_X_XML));
      expect(result.flags).toEqual([]);
      expect(result.facts("pdf-active-content").eInvoiceXml).toEqual([name]);
    },
  );

  test.each([
    ["an executable", "invoice.exe", "MZ\x90\x00\x03", "application/x-msdownload"],
    ["another PDF", "original.pdf", "%PDF-1.7\n", "application/pdf"],
    ["a PDF under the e-invoice's name", "factur-x.xml", "%PDF-1.7\n", "text/xml"],
    ["XML under another name", "payload.xml", FACTUR_X_XML, "text/xml"],
  ])("%s stays pdf_active_content", async (_, name, data, mime) => {
    const result = await inspect(withEmbeddedFile(makePdf(), name, data, mime));
    expect(result.evidence).toEqual([
      expect.objectContaining({ flag: "pdf_active_content", measured: "EmbeddedFile" }),
    ]);
  });
});

describe("updates that tools write to genuine files are not pdf_incremental_update", () => {
  test("a viewer's metadata-only save packed in an object stream is attributed, not opaque", async () => {
    const result = await inspect(metadataOnlySaveInObjectStreams(makePdf()));
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ updates: 1, benign: true, changedObjects: { metadata: 1 } });
  });

  test("a linearised file's first-page section is no update", async () => {
    const result = await inspect(linearisedPdf());
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ linearized: true, eofMarkers: 2, updates: 0 });
  });

  test("a signature's revision, its widget's appearance and font included", async () => {
    const result = await inspect(signedRevision(makePdf()));
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ updates: 1, benign: true });
  });

  test("a PDF/A conversion that embeds the fonts and declares conformance", async () => {
    const result = await inspect(pdfaConversion(makePdf()));
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ pdfaConversion: true, benign: true });
  });

  test("an OCR tool's invisible text layer added to a scan", async () => {
    const result = await inspect(ocrLayerAddedIncrementally(scannedPdf()));
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ benign: true, changedObjects: { "invisible-text": 1 } });
  });

  test("the same layer drawn through a form XObject, as OCRmyPDF grafts it", async () => {
    const result = await inspect(ocrLayerAddedIncrementally(scannedPdf(), { asForm: true }));
    expect(result.flags).toEqual([]);
    expect(result.facts("pdf-revisions")).toMatchObject({ benign: true, changedObjects: { "invisible-text": 2 } });
  });
});

describe("their forged twins still are", () => {
  test("a font replaced in an update that declares no PDF/A conformance", async () => {
    const edited = editPdfIncrementally(makePdf(), (doc) => {
      doc
        .findPage(0)
        .get("Resources")
        .get("Font")
        .forEach((ref) => {
          ref
            .resolve()
            .put("FontDescriptor", doc.addObject({ Type: "FontDescriptor", FontName: "Helvetica", Flags: 32 }));
        });
    });
    const result = await inspect(edited);
    expect(result.evidence).toEqual([expect.objectContaining({ flag: "pdf_incremental_update", strength: 0.6 })]);
  });

  test.each([
    ["in visible ink", { renderMode: 0 }],
    ["in visible ink, through a form", { renderMode: 0, asForm: true }],
    ["put ahead of the page's own content, whose state it would set", { before: true }],
  ])("a text layer added to a scan %s is an edit", async (_, options) => {
    expect((await inspect(ocrLayerAddedIncrementally(scannedPdf(), options))).flags).toContain(
      "pdf_incremental_update",
    );
  });

  test("invisible text written into a content stream the original already had is an edit", async () => {
    const rewritten = editPdfIncrementally(scannedPdf(), (doc) => {
      const contents = doc.findPage(0).get("Contents");
      contents.writeStream(new mupdf.Buffer("BT 3 Tr /GlyphLessFont 10 Tf 72 760 Td (Paid) Tj ET"));
    });
    expect((await inspect(rewritten)).flags).toContain("pdf_incremental_update");
  });
});

describe("an invisible OCR text layer is no overlay and no font inconsistency", () => {
  test("OCRmyPDF-style GlyphLessFont text over a scan's image", async () => {
    expect((await inspect(ocrScanInOneSave())).flags).toEqual([]);
  });

  test("GlyphLessFont words over a stamp, on the rows of a generated statement", async () => {
    const result = await inspect(ocrLayerOverStamp());
    expect(result.flags).toEqual([]);
  });

  test("the same words in visible ink are pdf_font_inconsistency", async () => {
    const visible = ocrLayerOverStamp().slice();
    const text = Buffer.from(visible).toString("latin1");
    const at = text.indexOf("3 Tr");
    expect(at).toBeGreaterThan(0);
    visible.set(Buffer.from("0 Tr", "latin1"), at);
    expect((await inspect(visible)).flags).toContain("pdf_font_inconsistency");
  });
});

describe("PDF dates accuse only when they contradict each other", () => {
  const metadataFlags = async (options: Parameters<typeof makePdf>[0]) =>
    (await inspect(makePdf(options))).evidence.filter((e) => e.detector === "pdf-metadata");

  test.each([
    [
      "a ModDate a time zone earlier, one writer having stamped local time as UTC",
      { creationDate: "D:20240401100000Z", modDate: "D:20240401100500+02'00'" },
    ],
    [
      "a ModDate without a zone beside a CreationDate with one",
      { creationDate: "D:20240401100000+02'00'", modDate: "D:20240401090000" },
    ],
    [
      "a ModDate a year later, by another tool than the XMP names",
      {
        creationDate: "D:20230401080000Z",
        modDate: "D:20240401080000Z",
        producer: "Microsoft Word 2019",
        xmp: xmpPacket({ "pdf:Producer": "Microsoft Word for Microsoft 365" }),
      },
    ],
    [
      "Info and XMP creation dates a time zone apart",
      { creationDate: "D:20240401100000Z", xmp: xmpPacket({ "xmp:CreateDate": "2024-04-01T10:00:00+02:00" }) },
    ],
    [
      "Info and XMP naming different producers (a signer updated only one)",
      { producer: "iText 7.2; modified using iText", xmp: xmpPacket({ "pdf:Producer": "ReportLab PDF Library" }) },
    ],
  ])("%s raises nothing", async (_, options) => {
    expect(await metadataFlags(options)).toEqual([]);
  });

  test.each([
    ["a ModDate a month before the CreationDate", { creationDate: "D:20240401080000Z", modDate: "D:20240301080000Z" }],
    [
      "Info and XMP creation dates a month apart",
      { creationDate: "D:20240401080000Z", xmp: xmpPacket({ "xmp:CreateDate": "2024-03-01T08:00:00Z" }) },
    ],
  ])("%s is metadata_inconsistent", async (_, options) => {
    expect((await metadataFlags(options)).map((e) => e.flag)).toEqual(["metadata_inconsistent"]);
  });
});
