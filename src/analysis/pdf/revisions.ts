// Incremental updates: a PDF edited and saved "incrementally" keeps its original bytes
// and appends the changed objects. What changed matters more than that something did:
// viewers re-save metadata and signers append signatures (benign), editors rewrite page
// content, fonts or add annotations (evidence).
import type * as mupdf from "mupdf";
import type { DetectorResult, Evidence } from "../report";
import { child, each, nameAt } from "./objects";

export const PDF_REVISIONS_DETECTOR = "pdf-revisions";

type Change = "content" | "annotation" | "action" | "signature" | "metadata" | "page" | "other" | "opaque";

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
  /** Annotation appearance streams and the fonts they use. */
  annotation: Set<number>;
  info?: number;
}

const classify = (doc: mupdf.PDFDocument, num: number, refs: KnownRefs): Change => {
  if (refs.content.has(num)) return "content";
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
    if (subtype === "Widget" && nameAt(obj, "FT") === "Sig") return "signature";
    return "annotation";
  }
  // A page dictionary changes when annotations are added as well as when its content
  // is replaced; the replaced content streams are classified on their own.
  if (type === "Page") return "page";
  if (type === "Font" || type === "FontDescriptor" || type === "XObject") return "content";
  if (subtype === "Image" || subtype === "Form" || subtype?.startsWith("Type1") || subtype === "TrueType") return "content";
  if (type === "Action" || !child(obj, "JS").isNull()) return "action";
  if (type === "Catalog" || type === "Pages" || type === "Metadata" || subtype === "XML") return "metadata";
  return "other";
};

const addRef = (set: Set<number>, obj: mupdf.PDFObject) => {
  if (obj.isIndirect()) set.add(obj.asIndirect());
};

const knownRefs = (doc: mupdf.PDFDocument, pagesToScan: number): KnownRefs => {
  const refs: KnownRefs = { content: new Set(), annotation: new Set() };
  for (let i = 0; i < pagesToScan; i++) {
    const page = doc.findPage(i);
    const contents = page.get("Contents");
    addRef(refs.content, contents);
    each(contents, (c) => addRef(refs.content, c), 1000);
    each(child(page, "Annots"), (annot) => {
      for (const key of ["N", "R", "D"]) {
        const ref = child(annot, "AP", key);
        addRef(refs.annotation, ref);
        each(child(ref, "Resources", "Font"), (f) => addRef(refs.annotation, f), 50);
      }
    });
  }
  const info = doc.getTrailer().get("Info");
  if (info.isIndirect()) refs.info = info.asIndirect();
  return refs;
};

export const detectRevisions = (doc: mupdf.PDFDocument, bytes: Uint8Array, pagesToScan: number): DetectorResult => {
  const versions = doc.countVersions();
  const text = latin1.decode(bytes);
  const ends = revisionEnds(text);
  const linearized = text.slice(0, 1024).includes("/Linearized");
  // A linearized file ends its first-page section with its own %%EOF.
  const originalEnds = linearized ? 2 : 1;
  const updates = Math.max(0, versions - 1, ends.length - originalEnds);
  const facts: Record<string, unknown> = { versions, eofMarkers: ends.length, linearized, updates };
  if (updates === 0) return { detector: PDF_REVISIONS_DETECTOR, evidence: [], facts, coverage: 1 };

  const refs = knownRefs(doc, pagesToScan);

  const changes = new Map<Change, number>();
  const start = ends[originalEnds - 1] ?? 0;
  const updateText = text.slice(start);
  const header = /(\d{1,9})\s+\d{1,5}\s+obj\b/g;
  let seen = 0;
  for (let m = header.exec(updateText); m && seen < 5000; m = header.exec(updateText), seen++) {
    const kind = classify(doc, Number(m[1]), refs);
    changes.set(kind, (changes.get(kind) ?? 0) + 1);
  }
  if (/\/Type\s*\/ObjStm/.test(updateText)) changes.set("opaque", (changes.get("opaque") ?? 0) + 1);
  facts.changedObjects = Object.fromEntries(changes);

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
  if (changes.has("content")) add(0.6, "page content, fonts or images were changed");
  else if (changes.has("annotation")) add(0.4, "annotations were added or changed");
  else if (changes.has("opaque")) add(0.35, "the changes are packed in object streams and could not be attributed");
  else if (changes.has("action")) add(0.25, "actions were added");
  // Metadata, structure and signature updates alone are what viewers and signers write.
  facts.benign = evidence.length === 0;
  return { detector: PDF_REVISIONS_DETECTOR, evidence, facts, coverage: 1 };
};
