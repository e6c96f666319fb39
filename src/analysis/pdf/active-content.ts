// Active content: JavaScript, launch actions, embedded files, XFA forms and rich media.
// None belongs in a bank statement or an identity document, and a forger's tool or a
// phishing kit is the usual reason it is there. The exception is the XML an e-invoice
// (ZUGFeRD, Factur-X, XRechnung) embeds by standard: data, recorded but not accused.
import type * as mupdf from "mupdf";
import type { DetectorResult, Evidence } from "../report.ts";
import { cleanSoftwareName } from "../software.ts";
import { describeFileSpec, embeddedFiles } from "./embedded-files.ts";
import { child, each, nameAt, resolved } from "./objects.ts";
import type { DetectorName } from "../manifest.ts";

export const PDF_ACTIVE_CONTENT_DETECTOR = "pdf-active-content" satisfies DetectorName;

type Kind = "JavaScript" | "Launch" | "EmbeddedFile" | "XFA" | "RichMedia" | "SubmitForm";

const STRENGTH: Record<Kind, number> = {
  JavaScript: 0.35,
  Launch: 0.45,
  EmbeddedFile: 0.2,
  XFA: 0.2,
  RichMedia: 0.25,
  SubmitForm: 0.15,
};

/** An action and its /Next chain, bounded. */
const actionKinds = (action: mupdf.PDFObject, found: Map<Kind, string>, where: string, depth = 0): void => {
  const a = resolved(action);
  if (depth > 8 || !a.isDictionary()) return;
  const s = nameAt(a, "S");
  if (s === "JavaScript" || !child(a, "JS").isNull()) found.set("JavaScript", where);
  if (s === "Launch") found.set("Launch", where);
  if (s === "SubmitForm" || s === "ImportData") found.set("SubmitForm", where);
  if (s === "RichMediaExecute") found.set("RichMedia", where);
  const next = child(a, "Next");
  if (next.isArray()) each(next, (n) => actionKinds(n, found, where, depth + 1), 20);
  else if (!next.isNull()) actionKinds(next, found, where, depth + 1);
};

/** Additional-actions dictionaries (/AA): every entry is an action. */
const additionalActions = (aa: mupdf.PDFObject, found: Map<Kind, string>, where: string): void => {
  each(aa, (action) => actionKinds(action, found, where), 50);
};

export const detectActiveContent = (doc: mupdf.PDFDocument, pagesToScan: number): DetectorResult => {
  const found = new Map<Kind, string>();
  const root = doc.getTrailer().get("Root");
  const open = child(root, "OpenAction");
  if (open.isDictionary()) actionKinds(open, found, "document OpenAction");
  additionalActions(child(root, "AA"), found, "document additional actions");
  if (!child(root, "Names", "JavaScript").isNull()) found.set("JavaScript", "document-level scripts");
  const files = embeddedFiles(root);
  const foreign = files.filter((f) => !f.eInvoice);
  if (foreign.length > 0)
    found.set("EmbeddedFile", `embedded file ${cleanSoftwareName(foreign[0]!.name) || "without a name"}`);
  if (!child(root, "AcroForm", "XFA").isNull()) found.set("XFA", "XFA form");

  for (let i = 0; i < pagesToScan; i++) {
    const page = doc.findPage(i);
    additionalActions(child(page, "AA"), found, `page ${i + 1} additional actions`);
    each(child(page, "Annots"), (ref) => {
      const annot = resolved(ref);
      const subtype = nameAt(annot, "Subtype");
      if (subtype === "RichMedia" || subtype === "Screen" || subtype === "Movie" || subtype === "Sound") {
        found.set("RichMedia", `page ${i + 1} ${subtype} annotation`);
      }
      if (subtype === "FileAttachment" && !describeFileSpec(child(annot, "FS")).eInvoice)
        found.set("EmbeddedFile", `page ${i + 1} file attachment`);
      const action = child(annot, "A");
      if (!action.isNull()) actionKinds(action, found, `page ${i + 1} ${subtype ?? "annotation"} action`);
      additionalActions(child(annot, "AA"), found, `page ${i + 1} ${subtype ?? "annotation"} actions`);
    });
  }

  const evidence: Evidence[] = [...found].map(([kind, where]) => ({
    flag: "pdf_active_content",
    detector: PDF_ACTIVE_CONTENT_DETECTOR,
    strength: STRENGTH[kind],
    message: `${kind} found (${where})`,
    measured: kind,
  }));
  return {
    detector: PDF_ACTIVE_CONTENT_DETECTOR,
    evidence,
    facts: { activeContent: [...found.keys()], eInvoiceXml: files.filter((f) => f.eInvoice).map((f) => f.name) },
    coverage: 1,
  };
};
