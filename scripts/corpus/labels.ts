// The corpus vocabulary: what each document is, and for forgeries where and what changed.
import type { DocumentType } from "../../src/analysis/flags.ts";
import type { Box } from "./render/svg.ts";

export const GENUINE_KINDS = [
  "genuine_clean", // straight from its generator (PDF, or the PNG rendering of a card)
  "genuine_office", // PDF whose metadata says an office suite made it
  "genuine_resaved", // PDF rewritten by a viewer, content unchanged
  "genuine_scan",
  "genuine_photo",
  "genuine_messaging", // phone photo sent through a messaging app
  "genuine_recompressed", // image opened and saved again without edits
] as const;

export const FORGERY_KINDS = [
  "pdf_incremental_edit", // white box and new text appended as an incremental update
  "pdf_amount_rewrite", // an amount changed in the content stream, totals left as they were
  "pdf_amount_rewrite_fixed_totals", // an amount changed and every dependent total made consistent
  "pdf_annotation_overlay", // a FreeText annotation laid over a field
  "pdf_editor_metadata", // a name rewritten, saved by an online/desktop PDF editor
  "pdf_forged_photographed", // an amount-rewritten PDF, printed and photographed
  "image_retype", // a field painted over and retyped in another font
  "image_copy_move", // a digit copied from elsewhere in the same image
  "image_splice_portrait", // portrait replaced by another person's
  "image_splice_field", // a field pasted from another document's image
  "image_double_compression", // a field retyped in the same font, re-saved by an editor
  "mrz_altered_bad_checksum", // MRZ birth date changed, check digits left alone
  "mrz_altered_recomputed", // MRZ birth date changed, check digits recomputed (VIZ disagrees)
] as const;

/**
 * Kinds only the manipulate generator (manipulate/generate.ts) makes, from genuine documents
 * of a corpus folder. Kept out of GENUINE_KINDS and FORGERY_KINDS because planCorpus plans
 * every kind of those for the in-house makers, which do not make these.
 */
export const MANIPULATED_GENUINE_KINDS = [
  // printed (halftone, paper), then photographed with a phone
  "genuine_print_photo",
  // shown on a monitor and photographed off it (pixel grid, moire, glare)
  "genuine_screen_recapture",
] as const;

export const MANIPULATED_FORGERY_KINDS = [
  // portrait replaced by another face, colour-matched and blended (seamless clone or feathered
  // mask)
  "image_portrait_swap",
  // a field erased by inpainting (TELEA/NS) and retyped in the document's own font and ink
  "image_inpaint_retype",
  // a field copied from another document of the same template and pasted over, slightly offset
  "image_paste_field",
] as const;

export type GenuineKind = (typeof GENUINE_KINDS)[number] | (typeof MANIPULATED_GENUINE_KINDS)[number];
export type ForgeryKind = (typeof FORGERY_KINDS)[number] | (typeof MANIPULATED_FORGERY_KINDS)[number];
export type Kind = GenuineKind | ForgeryKind;
export type CorpusFormat = "pdf" | "jpeg" | "png";

export const IDENTITY_TYPES = ["passport", "id", "drivers_license"] as const satisfies readonly DocumentType[];
export const FINANCE_TYPES = ["financial", "utility_bill"] as const satisfies readonly DocumentType[];
export type CorpusDocumentType = (typeof IDENTITY_TYPES)[number] | (typeof FINANCE_TYPES)[number];

export interface ForgeryRegion {
  /** 0-based page (always 0 for images). */
  page: number;
  /**
   * "px": pixels of the file's image (or of page 0 rendered at 72 dpi for "pt"); "pt": PDF points,
   * origin top-left of the page.
   */
  unit: "px" | "pt";
  box: Box;
  field: string;
  from: string;
  to: string;
}

export interface CorpusLabel {
  id: string;
  file: string;
  label: "genuine" | "forged";
  kind: Kind;
  documentType: CorpusDocumentType;
  format: CorpusFormat;
  /**
   * What drew the document: "pdf-lib", "pdfkit", "resvg" (identity templates) in the
   * generated corpus; another tool's name (libreoffice, chromium, ghostscript, ...) in
   * families made by other toolchains, or the source's name for real public documents.
   */
  generator: string;
  /**
   * How the document was made: its toolchain and capture path (familyOf). The fusion is
   * trained and reported leave-one-family-out, so each family is scored by a model that
   * never saw it.
   */
  family: string;
  split: "train" | "test";
  /** The template or finance layout the document came from. */
  source: string;
  /** Every step from generation to the file, in order. */
  history: string[];
  /** The MRZ as printed on the document, if it has one. */
  mrz?: { format: "TD1" | "TD2" | "TD3"; lines: string[] };
  forgery?: {
    regions: ForgeryRegion[];
    /** Software that saved the forgery, if it identifies itself. */
    software?: string;
  };
  /** The corpus clock: documents are valid on this date. */
  asOf: string;
}

export type CapturePath = "native" | "scan" | "photo" | "print_photo" | "screen_recapture";

/**
 * The capture path a history ends in: printed and photographed, photographed off a screen, a
 * scan or a photo (messaging-app and editor re-saves are later steps of the same path), or the
 * file as its tool (or an image editor) wrote it. A print or a screen in the history outranks a
 * plain photo: the document's pixels went through paper or a display first.
 */
export function capturePath(history: readonly string[]): CapturePath {
  if (history.some((step) => step.startsWith("print-photo:"))) return "print_photo";
  if (history.some((step) => step.startsWith("screen-recapture:"))) return "screen_recapture";
  if (history.some((step) => step.startsWith("photo:"))) return "photo";
  if (history.some((step) => step.startsWith("scan:"))) return "scan";
  return "native";
}

/** A family: the generator that drew the document and the path by which it was captured. */
export const familyOf = (generator: string, history: readonly string[]): string =>
  `${generator}/${capturePath(history)}`;

export function isGenuine(kind: Kind): kind is GenuineKind {
  return (
    (GENUINE_KINDS as readonly string[]).includes(kind) ||
    (MANIPULATED_GENUINE_KINDS as readonly string[]).includes(kind)
  );
}

/** Which document types each kind is made for. */
export function typesFor(kind: Kind): readonly CorpusDocumentType[] {
  if (kind.startsWith("pdf_") || kind === "genuine_office" || kind === "genuine_resaved") return FINANCE_TYPES;
  if (kind.startsWith("mrz_")) return ["passport", "id"];
  if (kind === "image_splice_portrait" || kind === "image_splice_field" || kind === "image_double_compression")
    return IDENTITY_TYPES;
  // Only cards and passports carry a portrait, and only templates printed many times over give
  // a donor with the same field box; a statement's amount moves with its row.
  if (kind === "image_portrait_swap" || kind === "image_paste_field") return IDENTITY_TYPES;
  return [...IDENTITY_TYPES, ...FINANCE_TYPES];
}

/** A generated document before it is named and labelled. */
export type MadeDocument = Pick<CorpusLabel, "format" | "generator" | "source" | "history" | "mrz" | "forgery"> & {
  bytes: Uint8Array;
};

const EXTENSIONS = { pdf: "pdf", jpeg: "jpg", png: "png" } as const;

/**
 * A made document named `<id>.<ext>` and labelled as its plan entry says: every corpus
 * generator (in-house, external, manipulated) labels its documents this one way.
 */
export function labelMade(
  planned: Pick<CorpusLabel, "id" | "kind" | "documentType" | "split">,
  made: MadeDocument,
  today: Date,
): { label: CorpusLabel; bytes: Uint8Array } {
  const { bytes, ...rest } = made;
  const label: CorpusLabel = {
    id: planned.id,
    file: `${planned.id}.${EXTENSIONS[made.format]}`,
    label: isGenuine(planned.kind) ? "genuine" : "forged",
    kind: planned.kind,
    documentType: planned.documentType,
    split: planned.split,
    ...rest,
    family: familyOf(made.generator, made.history),
    asOf: today.toISOString().slice(0, 10),
  };
  return { label, bytes };
}
