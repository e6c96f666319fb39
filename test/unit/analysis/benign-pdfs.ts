// PDFs as genuine tools write them after the generator: an e-invoice's embedded XML, a
// viewer's metadata-only save packed in object streams, a signature's revision, a PDF/A
// conversion, a scan with an invisible OCR text layer, a linearised file. Built here
// with mupdf (and by hand where mupdf no longer writes the structure).
import * as mupdf from "mupdf";
import { editPdfIncrementally, makePdf, makeImagePixels, xmpPacket } from "../../helpers/fixtures.ts";

const open = (pdf: Uint8Array) => mupdf.Document.openDocument(pdf, "application/pdf").asPDF()!;
const save = (doc: mupdf.PDFDocument, options = ""): Uint8Array => {
  const out = doc.saveToBuffer(options).asUint8Array().slice();
  doc.destroy();
  return out;
};

export const FACTUR_X_XML = `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><rsm:ExchangedDocument><ram:ID>INV-2024-0042</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;

/**
 * A file embedded as Factur-X embeds its XML: a Filespec with /AFRelationship, listed in
 * the catalog's /AF and in the /EmbeddedFiles name tree, written in one save.
 */
export function withEmbeddedFile(
  pdf: Uint8Array,
  name: string,
  data: string | Uint8Array,
  mime = "text/xml",
): Uint8Array {
  const doc = open(pdf);
  const file = doc.addStream(data, { Type: "EmbeddedFile", Subtype: doc.newName(mime) });
  const spec = doc.addObject({
    Type: "Filespec",
    F: doc.newString(name),
    UF: doc.newString(name),
    AFRelationship: "Alternative",
    EF: { F: file, UF: file },
  });
  const root = doc.getTrailer().get("Root");
  const names = doc.newArray();
  names.push(doc.newString(name));
  names.push(spec);
  root.put("Names", doc.addObject({ EmbeddedFiles: doc.addObject({ Names: names }) }));
  root.put(
    "AF",
    (() => {
      const af = doc.newArray();
      af.push(spec);
      return af;
    })(),
  );
  return save(doc, "compress");
}

/**
 * A viewer's incremental save of the document information only, written as viewers that
 * save PDF 1.5 write it: the new Info dictionary packed in an object stream, found through
 * a cross-reference stream. mupdf writes no object streams in an incremental save, so the
 * update is laid out by hand.
 */
export function metadataOnlySaveInObjectStreams(pdf: Uint8Array): Uint8Array {
  const original = Buffer.from(pdf).toString("latin1");
  const number = (re: RegExp) => Number([...original.matchAll(re)].at(-1)![1]);
  const [root, info, size, prevXref] = [
    /\/Root (\d+) 0 R/g,
    /\/Info (\d+) 0 R/g,
    /\/Size (\d+)/g,
    /startxref\s+(\d+)/g,
  ].map(number) as [number, number, number, number];
  const [objStm, xref] = [size, size + 1];
  const packed =
    "<< /Producer (ReportLab PDF Library - www.reportlab.com) /Title (March statement) /CreationDate (D:20240401080000Z) /ModDate (D:20240402091500Z) >>";
  const header = `${info} 0 `;
  let out = `${original}\n`;
  const objStmAt = out.length;
  out += `${objStm} 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Length ${header.length + packed.length} >>\nstream\n${header}${packed}\nendstream\nendobj\n`;
  const xrefAt = out.length;
  const entry = (type: number, field2: number, field3: number) =>
    Buffer.from([
      type,
      (field2 >>> 24) & 255,
      (field2 >>> 16) & 255,
      (field2 >>> 8) & 255,
      field2 & 255,
      (field3 >>> 8) & 255,
      field3 & 255,
    ]);
  const rows = Buffer.concat([entry(2, objStm, 0), entry(1, objStmAt, 0), entry(1, xrefAt, 0)]).toString("latin1");
  out += `${xref} 0 obj\n<< /Type /XRef /Size ${size + 2} /W [1 4 2] /Index [${info} 1 ${objStm} 2] /Root ${root} 0 R /Info ${info} 0 R /Prev ${prevXref} /Length ${rows.length} >>\nstream\n${rows}\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

/**
 * A signature's revision as signing tools append it: an /AcroForm with /SigFlags, a
 * signature field whose widget (a separate kid) shows an appearance stream with its own
 * font, and the /Sig value with a placeholder for the PKCS#7 blob.
 */
export function signedRevision(pdf: Uint8Array): Uint8Array {
  return editPdfIncrementally(pdf, (doc) => {
    const page = doc.findPage(0);
    const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const appearance = doc.addStream("q BT /Helv 7 Tf 2 10 Td (Digitally signed by Example Bank) Tj ET Q", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 180, 24],
      Resources: { Font: { Helv: font } },
    });
    const sig = doc.addObject({
      Type: "Sig",
      Filter: "Adobe.PPKLite",
      SubFilter: "adbe.pkcs7.detached",
      ByteRange: [0, 0, 0, 0],
      Contents: doc.newByteString(new Uint8Array(256)),
      M: doc.newString("D:20240401081000Z"),
    });
    const field = doc.addObject({ FT: "Sig", T: doc.newString("Signature1"), V: sig });
    const widget = doc.addObject({
      Type: "Annot",
      Subtype: "Widget",
      Rect: [380, 40, 560, 64],
      F: 4,
      P: page,
      Parent: field,
      AP: { N: appearance },
    });
    field.put(
      "Kids",
      (() => {
        const kids = doc.newArray();
        kids.push(widget);
        return kids;
      })(),
    );
    const annots = doc.newArray();
    annots.push(widget);
    page.put("Annots", annots);
    const fields = doc.newArray();
    fields.push(field);
    doc
      .getTrailer()
      .get("Root")
      .put("AcroForm", doc.addObject({ Fields: fields, SigFlags: 3 }));
  });
}

/**
 * A PDF/A conversion saved incrementally: the fonts' programs embedded, an output intent
 * with its ICC profile, and XMP that declares the conformance.
 */
export function pdfaConversion(pdf: Uint8Array): Uint8Array {
  return editPdfIncrementally(pdf, (doc) => {
    const page = doc.findPage(0);
    page
      .get("Resources")
      .get("Font")
      .forEach((ref) => {
        const font = ref.resolve();
        const descriptor = doc.addObject({
          Type: "FontDescriptor",
          FontName: font.get("BaseFont"),
          Flags: 32,
          FontBBox: [0, -200, 1000, 900],
          ItalicAngle: 0,
          Ascent: 900,
          Descent: -200,
          CapHeight: 700,
          StemV: 80,
        });
        descriptor.put("FontFile2", doc.addStream(new Uint8Array(64), { Length1: 64 }));
        font.put("FontDescriptor", descriptor);
      });
    const profile = doc.addStream(new Uint8Array(128), { N: 3 });
    const intent = doc.addObject({
      Type: "OutputIntent",
      S: "GTS_PDFA1",
      OutputConditionIdentifier: doc.newString("sRGB"),
      DestOutputProfile: profile,
    });
    const intents = doc.newArray();
    intents.push(intent);
    const root = doc.getTrailer().get("Root");
    root.put("OutputIntents", intents);
    const xmp = xmpPacket({
      "pdf:Producer": "ReportLab PDF Library - www.reportlab.com",
      "xmp:CreateDate": "2024-04-01T08:00:00Z",
    }).replace(
      "<rdf:Description ",
      `<rdf:Description xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="2" pdfaid:conformance="B" `,
    );
    root.put("Metadata", doc.addStream(xmp, { Type: "Metadata", Subtype: "XML" }));
  });
}

/**
 * A text-only content stream drawing `lines` invisibly (3 Tr) in GlyphLessFont, as Tesseract and
 * OCRmyPDF do.
 */
const ocrLayer = (lines: string[], renderMode = 3) =>
  `BT ${renderMode} Tr /GlyphLessFont 10 Tf ${lines.map((l, i) => `1 0 0 1 72 ${760 - i * 18} Tm (${l}) Tj`).join(" ")} ET`;

const SCAN_LINES = [
  "First Example Bank plc",
  "Account statement",
  "Opening balance 1,250.00",
  "10/03 Salary +2,400.00",
  "Closing balance 3,513.65",
];

/** A page that is one scanned image, as a scanner or a phone app writes it. */
export function scannedPdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const { data, width, height } = makeImagePixels({ width: 300, height: 420, seed: 7 });
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  pixmap.getPixels().set(data);
  const image = doc.addImage(new mupdf.Image(pixmap));
  const resources = doc.addObject({ XObject: { Scan: image } });
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "q 595 0 0 842 0 0 cm /Scan Do Q"));
  doc.setMetaData("info:Producer", "Canon imageFORMULA");
  doc.setMetaData("info:CreationDate", "D:20240401080000Z");
  return save(doc);
}

const glyphLessFont = (doc: mupdf.PDFDocument) =>
  doc.addObject({ Type: "Font", Subtype: "Type1", BaseFont: "GlyphLessFont", Encoding: "WinAnsiEncoding" });

export interface OcrLayerOptions {
  /** 3 (invisible) as OCR tools write it; 0 makes the same text visible ink. */
  renderMode?: number;
  /** Drawn through a form XObject, as OCRmyPDF grafts its layer. */
  asForm?: boolean;
  /** Put ahead of the page's own content instead of after it. */
  before?: boolean;
}

/** An OCR tool's text layer over the scan's image, added to the page as an incremental update. */
export function ocrLayerAddedIncrementally(pdf: Uint8Array, options: OcrLayerOptions = {}): Uint8Array {
  return editPdfIncrementally(pdf, (doc) => {
    const page = doc.findPage(0);
    const resources = page.get("Resources");
    const fonts = doc.addObject({ GlyphLessFont: glyphLessFont(doc) });
    const text = ocrLayer(SCAN_LINES, options.renderMode ?? 3);
    let layer: mupdf.PDFObject;
    if (options.asForm) {
      const form = doc.addStream(text, {
        Type: "XObject",
        Subtype: "Form",
        BBox: [0, 0, 595, 842],
        Resources: { Font: fonts },
      });
      resources.get("XObject").put("OCRLayer", form);
      layer = doc.addStream("q /OCRLayer Do Q", {});
    } else {
      resources.put("Font", fonts);
      layer = doc.addStream(text, {});
    }
    const contents = doc.newArray();
    if (options.before) contents.push(layer);
    contents.push(page.get("Contents"));
    if (!options.before) contents.push(layer);
    page.put("Contents", contents);
  });
}

/**
 * OCRmyPDF's output: the scan and its invisible text layer in one generation, Tesseract's font
 * beside a header line a generator drew.
 */
export function ocrScanInOneSave(): Uint8Array {
  const doc = open(scannedPdf());
  const page = doc.findPage(0);
  const contents = doc.newArray();
  contents.push(page.get("Contents"));
  contents.push(doc.addStream(ocrLayer(SCAN_LINES), {}));
  page.put("Contents", contents);
  page.get("Resources").put("Font", doc.addObject({ GlyphLessFont: glyphLessFont(doc) }));
  doc.setMetaData("info:Producer", "ocrmypdf 16.0.4 / Tesseract OCR-PDF 5.3.4");
  return save(doc);
}

/**
 * A linearised ("fast web view") file, laid out by hand as ISO 32000-1 Annex F lays it
 * out: the linearisation dictionary first, the first page's cross-reference section and
 * trailer (with its own %%EOF) ahead of the first page, the rest and the main
 * cross-reference section at the end. mupdf no longer writes linearised files.
 */
export function linearisedPdf(): Uint8Array {
  const objects: Record<number, string> = {
    2: "<< /Type /Catalog /Pages 3 0 R >>",
    4: "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 6 0 R >> >> /Contents 5 0 R >>",
    5: "",
    6: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    3: "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    7: "<< /Producer (ReportLab PDF Library - www.reportlab.com) /CreationDate (D:20240401080000Z) /ModDate (D:20240401080000Z) >>",
  };
  const content = "BT /F1 11 Tf 72 760 Td (First Example Bank plc) Tj 0 -18 Td (Closing balance 3,513.65) Tj ET";
  const body = (n: number) =>
    n === 5
      ? `5 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`
      : `${n} 0 obj\n${objects[n]}\nendobj\n`;
  const pad = (n: number) => String(n).padStart(10, "0");
  const header = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  // Fixed-width placeholders keep offsets stable while the numbers are filled in.
  const linDict = (length: number, endFirst: number, mainXref: number) =>
    `1 0 obj\n<< /Linearized 1 /L ${pad(length)} /H [ 0 0 ] /O 4 /E ${pad(endFirst)} /N 1 /T ${pad(mainXref)} >>\nendobj\n`;
  const firstXref = (offsets: number[], prev: number) =>
    `xref\n1 6\n${offsets.map((o) => `${pad(o)} 00000 n \n`).join("")}trailer\n<< /Size 8 /Root 2 0 R /Info 7 0 R /Prev ${pad(prev)} >>\nstartxref\n0\n%%EOF\n`;
  const build = (length: number, endFirst: number, mainXref: number, offsets: Record<number, number>) => {
    let out = header;
    const at: Record<number, number> = {};
    at[1] = out.length;
    out += linDict(length, endFirst, mainXref);
    const firstXrefAt = out.length;
    out += firstXref(
      [1, 2, 3, 4, 5, 6].map((n) => offsets[n] ?? 0),
      mainXref,
    );
    for (const n of [2, 4, 5, 6]) {
      at[n] = out.length;
      out += body(n);
    }
    const first = out.length;
    for (const n of [3, 7]) {
      at[n] = out.length;
      out += body(n);
    }
    const xrefAt = out.length;
    out += `xref\n0 1\n0000000000 65535 f \n7 1\n${pad(at[7]!)} 00000 n \ntrailer\n<< /Size 8 >>\nstartxref\n${firstXrefAt}\n%%EOF\n`;
    return { out, at, first, xrefAt };
  };
  let pass = build(0, 0, 0, {});
  pass = build(pass.out.length, pass.first, pass.xrefAt, pass.at);
  pass = build(pass.out.length, pass.first, pass.xrefAt, pass.at);
  return new Uint8Array(Buffer.from(pass.out, "latin1"));
}

/**
 * A generated page with a stamped image (a signature, a seal) whose words an OCR tool put in an
 * invisible layer over it.
 */
export function ocrLayerOverStamp(): Uint8Array {
  const doc = open(makePdf());
  const page = doc.findPage(0);
  const { data, width, height } = makeImagePixels({ width: 200, height: 60, seed: 3 });
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  pixmap.getPixels().set(data);
  const resources = page.get("Resources");
  resources.put("XObject", doc.addObject({ Stamp: doc.addImage(new mupdf.Image(pixmap)) }));
  resources.get("Font").put("GlyphLessFont", glyphLessFont(doc));
  const contents = doc.newArray();
  contents.push(page.get("Contents"));
  contents.push(
    doc.addStream(
      `q 200 40 0 0 300 600 cm /Stamp Do Q BT 3 Tr /GlyphLessFont 11 Tf 1 0 0 1 72 625 Tm (Paid 12/04/2024 ref 5531) Tj 1 0 0 1 250 616 Tm (0.00) Tj ET`,
      {},
    ),
  );
  page.put("Contents", contents);
  return save(doc);
}
