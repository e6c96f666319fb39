// Incremental updates: a PDF edited and saved "incrementally" keeps its original bytes
// and appends the changed objects. What changed matters more than that something did:
// viewers re-save metadata, signers append signatures with their appearance, OCR tools
// add an invisible text layer to a scan, PDF/A converters embed fonts and declare
// conformance (benign); editors rewrite page content, fonts or add annotations (evidence).
import type * as mupdf from "mupdf";
import type { DetectorResult, Evidence } from "../report.ts";
import { invisibleTextLayer } from "./invisible-text.ts";
import { readXmp } from "./metadata.ts";
import { child, each, nameAt } from "./objects.ts";
import type { DetectorName } from "../manifest.ts";

export const PDF_REVISIONS_DETECTOR = "pdf-revisions" satisfies DetectorName;

type Change =
  | "content"
  | "invisible-text"
  | "font"
  | "annotation"
  | "action"
  | "signature"
  | "metadata"
  | "page"
  | "other"
  | "opaque";

/** Objects an object stream of an update may pack that are attributed one by one. */
const MAX_PACKED = 2000;
/** A font program's stream: FontFile (Length1..3) or FontFile3 (its own /Subtype). */
const FONT_PROGRAM_SUBTYPES = new Set(["Type1C", "CIDFontType0C", "OpenType"]);

const latin1 = new TextDecoder("latin1");

/** Offsets just past each "%%EOF": the end of each revision in the raw bytes. */
const revisionEnds = (text: string): number[] => {
  const ends: number[] = [];
  const re = /%%EOF/g;
  for (let m = re.exec(text); m && ends.length < 1000; m = re.exec(text)) ends.push(m.index + 5);
  return ends;
};

interface KnownRefs {
  /** Page content streams. */
  content: Set<number>;
  /**
   * Invisible text layers: streams added after every original stream of their page, and the forms
   * they draw.
   */
  layers: Set<number>;
  /** Annotation appearance streams and the fonts they use. */
  annotation: Set<number>;
  /** Appearance streams of signature fields and the fonts they use: part of signing. */
  signature: Set<number>;
  info?: number;
  /** Objects numbered from here on did not exist in the original revision. */
  originalSize: number;
}

/** A signature field's widget: /FT /Sig on the widget or on the field it belongs to. */
const isSignatureField = (annot: mupdf.PDFObject): boolean =>
  nameAt(annot, "FT") === "Sig" || nameAt(child(annot, "Parent"), "FT") === "Sig";

const classify = (doc: mupdf.PDFDocument, num: number, refs: KnownRefs): Change => {
  // A content stream the update added after the page's own that draws only invisible
  // text (and the forms it draws) is an OCR layer; one that existed before and was
  // rewritten, or one drawn before the original (its state would carry into it), is an
  // edit whatever it holds.
  if (refs.layers.has(num)) return "invisible-text";
  if (refs.content.has(num)) return "content";
  if (refs.signature.has(num)) return "signature";
  if (refs.annotation.has(num)) return "annotation";
  const infoRef = refs.info;
  if (num === infoRef) return "metadata";
  const obj = doc.newIndirect(num).resolve();
  if (!obj.isDictionary() && !obj.isStream()) return "other";
  const type = nameAt(obj, "Type");
  const subtype = nameAt(obj, "Subtype");
  if (type === "ObjStm" || type === "XRef") return type === "ObjStm" ? "opaque" : "other";
  if (type === "Sig" || type === "DocTimeStamp") return "signature";
  if (type === "Annot" || (subtype && child(obj, "Rect").isArray())) {
    if (subtype === "Widget" && isSignatureField(obj)) return "signature";
    return "annotation";
  }
  // A page dictionary changes when annotations are added as well as when its content
  // is replaced; the replaced content streams are classified on their own.
  if (type === "Page") return "page";
  if (
    type === "Font" ||
    type === "FontDescriptor" ||
    subtype === "TrueType" ||
    subtype === "Type0" ||
    subtype === "Type1"
  )
    return "font";
  if ((subtype && FONT_PROGRAM_SUBTYPES.has(subtype)) || !child(obj, "Length1").isNull()) return "font";
  if (type === "XObject" || subtype === "Image" || subtype === "Form" || subtype?.startsWith("Type1")) return "content";
  if (type === "Action" || !child(obj, "JS").isNull()) return "action";
  if (type === "Catalog" || type === "Pages" || type === "Metadata" || subtype === "XML") return "metadata";
  return "other";
};

const addRef = (set: Set<number>, obj: mupdf.PDFObject) => {
  if (obj.isIndirect()) set.add(obj.asIndirect());
};

const knownRefs = (doc: mupdf.PDFDocument, pagesToScan: number, originalSize: number): KnownRefs => {
  const refs: KnownRefs = {
    content: new Set(),
    layers: new Set(),
    annotation: new Set(),
    signature: new Set(),
    originalSize,
  };
  for (let i = 0; i < pagesToScan; i++) {
    const page = doc.findPage(i);
    const contents = page.get("Contents");
    addRef(refs.content, contents);
    each(contents, (c) => addRef(refs.content, c), 1000);
    const streams: number[] = [];
    if (contents.isIndirect()) streams.push(contents.asIndirect());
    each(contents, (c) => c.isIndirect() && streams.push(c.asIndirect()), 1000);
    const lastOriginal = streams.findLastIndex((n) => n < originalSize);
    for (const n of lastOriginal >= 0 ? streams.slice(lastOriginal + 1) : []) {
      const forms = invisibleTextLayer(doc.newIndirect(n), page.getInheritable("Resources"));
      // Forms the update added only: an original form rewritten is an edit of what drew it.
      if (forms) for (const layer of [n, ...forms.filter((f) => f >= originalSize)]) refs.layers.add(layer);
    }
    each(child(page, "Annots"), (annot) => {
      const into = isSignatureField(annot) ? refs.signature : refs.annotation;
      for (const key of ["N", "R", "D"]) {
        const ref = child(annot, "AP", key);
        addRef(into, ref);
        each(child(ref, "Resources", "Font"), (f) => addRef(into, f), 50);
      }
    });
  }
  const info = doc.getTrailer().get("Info");
  if (info.isIndirect()) refs.info = info.asIndirect();
  return refs;
};

/**
 * Object numbers an object stream packs (its header's pairs), bounded; undefined when unreadable.
 */
const packedObjects = (stream: mupdf.PDFObject): number[] | undefined => {
  const n = stream.get("N");
  const first = stream.get("First");
  if (!n.isNumber() || !first.isNumber() || n.asNumber() > MAX_PACKED) return undefined;
  try {
    const header = latin1.decode(stream.readStream().asUint8Array().subarray(0, first.asNumber()));
    const numbers = header.trim().split(/\s+/).map(Number);
    return numbers.filter((v, i) => i % 2 === 0 && Number.isInteger(v)).slice(0, n.asNumber());
  } catch {
    return undefined;
  }
};

/**
 * The object count of the original revision: the last /Size its trailers or cross-reference streams
 * give.
 */
const sizeOf = (original: string): number => {
  const sizes = [...original.matchAll(/\/Size\s+(\d{1,9})/g)].map((m) => Number(m[1]));
  // Without one, no object counts as new.
  return sizes.at(-1) ?? Number.MAX_SAFE_INTEGER;
};

/**
 * A PDF/A conversion declares its conformance in the XMP it rewrote, and names an output intent.
 */
const declaresPdfA = (doc: mupdf.PDFDocument, changes: Map<Change, number>): boolean =>
  changes.has("metadata") &&
  readXmp(doc)?.pdfaPart !== undefined &&
  !child(doc.getTrailer(), "Root", "OutputIntents").isNull();

export const detectRevisions = (doc: mupdf.PDFDocument, bytes: Uint8Array, pagesToScan: number): DetectorResult => {
  const versions = doc.countVersions();
  const text = latin1.decode(bytes);
  const ends = revisionEnds(text);
  // The linearisation dictionary is the file's first object (ISO 32000-1, F.2).
  const linearized = /^%PDF-[\s\S]{0,1024}?\d+\s+\d+\s+obj\s*<<[^>]{0,200}\/Linearized/.test(text.slice(0, 4096));
  // A linearized file ends its first-page section with its own %%EOF.
  const originalEnds = linearized ? 2 : 1;
  const updates = Math.max(0, versions - 1, ends.length - originalEnds);
  const facts: Record<string, unknown> = { versions, eofMarkers: ends.length, linearized, updates };
  if (updates === 0) return { detector: PDF_REVISIONS_DETECTOR, evidence: [], facts, coverage: 1 };

  const start = ends[originalEnds - 1] ?? 0;
  const refs = knownRefs(doc, pagesToScan, sizeOf(text.slice(0, start)));

  const changes = new Map<Change, number>();
  const fontsReplaced = { count: 0 };
  const record = (num: number) => {
    const kind = classify(doc, num, refs);
    if (kind === "font" && num < refs.originalSize) fontsReplaced.count++;
    changes.set(kind, (changes.get(kind) ?? 0) + 1);
  };
  const updateText = text.slice(start);
  const header = /(\d{1,9})\s+\d{1,5}\s+obj\b/g;
  let seen = 0;
  for (let m = header.exec(updateText); m && seen < 5000; m = header.exec(updateText), seen++) {
    const num = Number(m[1]);
    const obj = doc.newIndirect(num);
    if (nameAt(obj, "Type") !== "ObjStm") {
      record(num);
      continue;
    }
    // Viewers pack even a metadata-only save in object streams: attribute what they hold.
    const packed = packedObjects(obj);
    if (!packed) changes.set("opaque", (changes.get("opaque") ?? 0) + 1);
    else for (const inner of packed) if (seen++ < 5000) record(inner);
  }
  facts.changedObjects = Object.fromEntries(changes);
  // Fonts the update added can only be drawn by content it changed, judged on its own; a
  // font it replaced changes how the original text looks, unless the update is a PDF/A
  // conversion embedding the programs of the fonts the file only named.
  const pdfA = fontsReplaced.count > 0 && declaresPdfA(doc, changes);
  if (pdfA) facts.pdfaConversion = true;

  const evidence: Evidence[] = [];
  const add = (strength: number, what: string) =>
    evidence.push({
      flag: "pdf_incremental_update",
      detector: PDF_REVISIONS_DETECTOR,
      strength,
      message: `${updates} incremental update${updates > 1 ? "s" : ""} after the original; ${what}`,
      measured: updates,
      threshold: 0,
    });
  if (changes.has("content") || (fontsReplaced.count > 0 && !pdfA))
    add(0.6, "page content, fonts or images were changed");
  else if (changes.has("annotation")) add(0.4, "annotations were added or changed");
  else if (changes.has("opaque")) add(0.35, "the changes are packed in object streams and could not be attributed");
  else if (changes.has("action")) add(0.25, "actions were added");
  // Metadata, structure, signature, invisible OCR text and PDF/A updates alone are what
  // viewers, signers, OCR tools and converters write.
  facts.benign = evidence.length === 0;
  return { detector: PDF_REVISIONS_DETECTOR, evidence, facts, coverage: 1 };
};
