// What intake hands to analysis: bytes whose format was judged from their content.

const DOCUMENT_FORMATS = ["jpeg", "png", "pdf"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export interface IntakeDocument {
  bytes: Uint8Array;
  format: DocumentFormat;
  /** An image's width × height as intake read it from its header (absent for PDFs). */
  pixels?: number;
}

/** Sizes in bytes, as the API contract counts them. */
export const LIMITS = {
  uploadBytes: 4_500_000,
  urlBytes: 10_000_000,
  batchBodyBytes: 4_500_000,
  batchDocuments: 50,
  callbackSecretMinLength: 16,
} as const;
