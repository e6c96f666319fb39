// The flag vocabulary (README "How a document is judged"): fixed, snake_case, listed as the enum of
// `flags` items in the OpenAPI document. Each is raised by a named detector.

export const FLAGS = [
  "editing_software",
  "metadata_inconsistent",
  "pdf_incremental_update",
  "pdf_font_inconsistency",
  "pdf_font_substitution",
  "pdf_text_overlay",
  "pdf_annotation_overlay",
  "pdf_active_content",
  "double_jpeg_compression",
  "region_tampering",
  "copy_move",
  "text_inconsistency",
  "screenshot",
  "recaptured",
  "mrz_checksum_invalid",
  "mrz_mismatch",
  "document_expired",
  "balance_mismatch",
  "duplicate_submission",
  "low_quality",
] as const;

export type Flag = (typeof FLAGS)[number];

/**
 * What a flag says about a document (listed in the OpenAPI document and the report):
 * - alteration: evidence that content was changed (white-out and retype, a font or style
 *   unlike its neighbours, a value in a font the file does not carry, MRZ check digits that
 *   fail after corrections, a zone that disagrees with the page, a pasted area, cloned
 *   pixels, dates or balances that contradict each other, the same portrait under another
 *   name);
 * - provenance: how the file came to be (an editor saved it, its metadata dates, a later
 *   revision, embedded content, a re-compression, a screen capture, a photograph of a screen
 *   or print). Genuine documents have
 *   such histories every day (a customer crops a photo, a viewer saves a PDF), so a
 *   provenance concern alone keeps the score below the verdict line and never gives high
 *   confidence;
 * - informational: describes the document, never a forgery (low quality, expired).
 */
export type FlagClass = "alteration" | "provenance" | "informational";

export const FLAG_CLASSES: Readonly<Record<Flag, FlagClass>> = {
  editing_software: "provenance",
  metadata_inconsistent: "provenance",
  pdf_incremental_update: "provenance",
  pdf_font_inconsistency: "alteration",
  pdf_font_substitution: "alteration",
  pdf_text_overlay: "alteration",
  pdf_annotation_overlay: "alteration",
  pdf_active_content: "provenance",
  double_jpeg_compression: "provenance",
  region_tampering: "alteration",
  copy_move: "alteration",
  text_inconsistency: "alteration",
  screenshot: "provenance",
  recaptured: "provenance",
  mrz_checksum_invalid: "alteration",
  mrz_mismatch: "alteration",
  document_expired: "informational",
  balance_mismatch: "alteration",
  duplicate_submission: "alteration",
  low_quality: "informational",
};

export const flagsOfClass = (cls: FlagClass): Flag[] => FLAGS.filter((f) => FLAG_CLASSES[f] === cls);

export const DOCUMENT_TYPES = ["passport", "id", "drivers_license", "utility_bill", "financial", "unknown"] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Documents that carry their holder's portrait. */
export const IDENTITY_TYPES: readonly DocumentType[] = ["passport", "id", "drivers_license"];

export const CONFIDENCES = ["low", "medium", "high"] as const;
export type Confidence = (typeof CONFIDENCES)[number];
