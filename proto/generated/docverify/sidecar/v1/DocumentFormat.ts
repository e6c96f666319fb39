// Original file: docverify/sidecar/v1/analyzer.proto

export const DocumentFormat = {
  DOCUMENT_FORMAT_UNSPECIFIED: 'DOCUMENT_FORMAT_UNSPECIFIED',
  DOCUMENT_FORMAT_JPEG: 'DOCUMENT_FORMAT_JPEG',
  DOCUMENT_FORMAT_PNG: 'DOCUMENT_FORMAT_PNG',
  DOCUMENT_FORMAT_PDF: 'DOCUMENT_FORMAT_PDF',
} as const;

export type DocumentFormat =
  | 'DOCUMENT_FORMAT_UNSPECIFIED'
  | 0
  | 'DOCUMENT_FORMAT_JPEG'
  | 1
  | 'DOCUMENT_FORMAT_PNG'
  | 2
  | 'DOCUMENT_FORMAT_PDF'
  | 3

export type DocumentFormat__Output = typeof DocumentFormat[keyof typeof DocumentFormat]
