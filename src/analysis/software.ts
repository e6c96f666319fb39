// What a Software / CreatorTool / Producer / Creator string says about a file's history.
// A generator (a bank's reporting engine, an office suite, a camera) is data; an editor
// that can change what a document shows is evidence. Matching is on lowercase substrings.

/**
 * "developer": a photo app that crops, rotates and sets tone (a gallery's editor, raw
 * development), what a genuine photo passes through before it is sent: named, not accused.
 */
type SoftwareKind = "editor" | "developer" | "generator" | "unknown";

export interface SoftwareMatch {
  kind: SoftwareKind;
  /** Canonical name of the matched product, e.g. "Adobe Photoshop". */
  product?: string;
  /** How strongly its presence alone suggests the content was edited, 0..1. */
  strength: number;
}

interface Entry {
  product: string;
  patterns: string[];
  strength: number;
}

/** Image editors: retouching and compositing tools that can change pixels at will. */
const IMAGE_EDITORS: Entry[] = [
  { product: "Adobe Photoshop", patterns: ["photoshop"], strength: 0.6 },
  { product: "GIMP", patterns: ["gimp"], strength: 0.6 },
  { product: "Pixelmator", patterns: ["pixelmator"], strength: 0.55 },
  { product: "Affinity Photo", patterns: ["affinity"], strength: 0.55 },
  { product: "Canva", patterns: ["canva"], strength: 0.55 },
  { product: "Paint.NET", patterns: ["paint.net"], strength: 0.55 },
  { product: "Photopea", patterns: ["photopea"], strength: 0.6 },
  { product: "Corel PaintShop Pro", patterns: ["paintshop", "paint shop pro"], strength: 0.55 },
  { product: "Krita", patterns: ["krita"], strength: 0.5 },
  { product: "PicsArt", patterns: ["picsart"], strength: 0.5 },
  { product: "Fotor", patterns: ["fotor"], strength: 0.45 },
  { product: "PhotoScape", patterns: ["photoscape"], strength: 0.45 },
  { product: "Meitu", patterns: ["meitu"], strength: 0.45 },
  { product: "Facetune", patterns: ["facetune"], strength: 0.45 },
];

/**
 * Photo developers, matched before the editors: several carry an editor's name
 * ("Adobe Photoshop Lightroom", "Adobe Photoshop Camera Raw", "Photoshop Express") but crop,
 * straighten and tone rather than retouch: a crop changes no word of a document.
 */
const PHOTO_DEVELOPERS: Entry[] = [
  { product: "Adobe Lightroom", patterns: ["lightroom"], strength: 0 },
  { product: "Adobe Camera Raw", patterns: ["camera raw"], strength: 0 },
  { product: "Adobe Photoshop Express", patterns: ["photoshop express"], strength: 0 },
  { product: "Snapseed", patterns: ["snapseed"], strength: 0 },
];

/** PDF editors: tools whose purpose includes changing text and images of a PDF. */
const PDF_EDITORS: Entry[] = [
  { product: "PDFescape", patterns: ["pdfescape"], strength: 0.55 },
  { product: "Sejda", patterns: ["sejda"], strength: 0.5 },
  { product: "iLovePDF", patterns: ["ilovepdf"], strength: 0.4 },
  { product: "Smallpdf", patterns: ["smallpdf"], strength: 0.4 },
  { product: "Foxit PDF Editor", patterns: ["foxit phantompdf", "foxit pdf editor", "phantompdf"], strength: 0.45 },
  { product: "PDF-XChange Editor", patterns: ["pdf-xchange editor", "pdf-xchange pro"], strength: 0.45 },
  { product: "Nitro PDF", patterns: ["nitro pro", "nitro pdf"], strength: 0.4 },
  { product: "Wondershare PDFelement", patterns: ["pdfelement", "wondershare"], strength: 0.45 },
  { product: "PDFfiller", patterns: ["pdffiller"], strength: 0.5 },
  { product: "DocHub", patterns: ["dochub"], strength: 0.45 },
  { product: "Soda PDF", patterns: ["soda pdf"], strength: 0.4 },
  { product: "PDF Candy", patterns: ["pdf candy", "pdfcandy"], strength: 0.4 },
  { product: "Able2Extract", patterns: ["able2extract"], strength: 0.4 },
  { product: "Adobe Acrobat Pro", patterns: ["acrobat pro", "adobe acrobat 2", "adobe acrobat dc"], strength: 0.3 },
  { product: "Canva", patterns: ["canva"], strength: 0.45 },
  { product: "Adobe Photoshop", patterns: ["photoshop"], strength: 0.5 },
  { product: "GIMP", patterns: ["gimp"], strength: 0.5 },
];

/** Generators: software that writes documents from data, templates or office files. */
const GENERATORS: Entry[] = [
  { product: "ReportLab", patterns: ["reportlab"], strength: 0 },
  { product: "wkhtmltopdf", patterns: ["wkhtmltopdf"], strength: 0 },
  { product: "iText", patterns: ["itext"], strength: 0 },
  { product: "Apache FOP", patterns: ["apache fop", "fop "], strength: 0 },
  { product: "PDFlib", patterns: ["pdflib"], strength: 0 },
  { product: "TCPDF", patterns: ["tcpdf"], strength: 0 },
  { product: "mPDF", patterns: ["mpdf"], strength: 0 },
  { product: "dompdf", patterns: ["dompdf"], strength: 0 },
  { product: "Prince", patterns: ["prince"], strength: 0 },
  { product: "Skia/PDF", patterns: ["skia/pdf", "chromium", "headlesschrome"], strength: 0 },
  { product: "Qt", patterns: ["qt "], strength: 0 },
  { product: "Quartz PDFContext", patterns: ["quartz pdfcontext", "macos"], strength: 0 },
  {
    product: "Microsoft Office",
    patterns: ["microsoft® word", "microsoft word", "microsoft® excel", "microsoft excel", "microsoft office"],
    strength: 0,
  },
  { product: "LibreOffice", patterns: ["libreoffice", "openoffice"], strength: 0 },
  { product: "Adobe PDF Library", patterns: ["adobe pdf library", "acrobat distiller", "pdfmaker"], strength: 0 },
  { product: "Ghostscript", patterns: ["ghostscript", "gpl ghostscript"], strength: 0 },
  { product: "TeX", patterns: ["pdftex", "xetex", "luatex", "dvipdfm"], strength: 0 },
  { product: "Crystal Reports", patterns: ["crystal reports"], strength: 0 },
  { product: "JasperReports", patterns: ["jasperreports"], strength: 0 },
  { product: "MuPDF", patterns: ["mupdf"], strength: 0 },
  { product: "PDFsharp", patterns: ["pdfsharp"], strength: 0 },
  { product: "Aspose", patterns: ["aspose"], strength: 0 },
];

const lookup = (entries: Entry[], value: string): Entry | undefined => {
  const v = value.toLowerCase();
  return entries.find((e) => e.patterns.some((p) => v.includes(p)));
};

const classify = (editors: Entry[], value: string | undefined, developers: Entry[] = []): SoftwareMatch => {
  if (!value?.trim()) return { kind: "unknown", strength: 0 };
  const developer = lookup(developers, value);
  if (developer) return { kind: "developer", product: developer.product, strength: 0 };
  const editor = lookup(editors, value);
  if (editor) return { kind: "editor", product: editor.product, strength: editor.strength };
  const generator = lookup(GENERATORS, value);
  if (generator) return { kind: "generator", product: generator.product, strength: 0 };
  return { kind: "unknown", strength: 0 };
};

export const classifyImageSoftware = (value: string | undefined): SoftwareMatch =>
  classify(IMAGE_EDITORS, value, PHOTO_DEVELOPERS);

export const classifyPdfSoftware = (value: string | undefined): SoftwareMatch => classify(PDF_EDITORS, value);

/** Bounded, printable form of a software string for facts and messages. */
export const cleanSoftwareName = (value: string): string =>
  value
    .replace(/[^\x20-\x7e\u00a0-\u024f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
