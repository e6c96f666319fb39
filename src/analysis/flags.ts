// The flag vocabulary (DESIGN.md "Decisions"): fixed, snake_case, listed as the enum of
// `flags` items in the OpenAPI document. Each is raised by a named detector.

export const FLAGS = [
  "editing_software",
  "metadata_inconsistent",
  "pdf_incremental_update",
  "pdf_font_inconsistency",
  "pdf_text_overlay",
  "pdf_annotation_overlay",
  "pdf_active_content",
  "double_jpeg_compression",
  "region_tampering",
  "copy_move",
  "text_inconsistency",
  "screenshot",
  "mrz_checksum_invalid",
  "mrz_mismatch",
  "document_expired",
  "balance_mismatch",
  "duplicate_submission",
  "low_quality",
] as const;

export type Flag = (typeof FLAGS)[number];

export const DOCUMENT_TYPES = [
  "passport",
  "id",
  "drivers_license",
  "utility_bill",
  "financial",
  "unknown",
] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const CONFIDENCES = ["low", "medium", "high"] as const;
export type Confidence = (typeof CONFIDENCES)[number];
