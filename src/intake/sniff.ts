// The format of a document judged from its first bytes only; names and declared MIME types
// are the sender's claims and are ignored.

import type { DocumentFormat } from "./document.ts";

const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF_MAGIC = [...new TextEncoder().encode("%PDF-")];
// Readers accept the header anywhere in the first 1024 bytes (PDF Reference 1.7, H.3 note 13).
const PDF_HEADER_WINDOW = 1024;

export function sniffFormat(bytes: Uint8Array): DocumentFormat | null {
  if (startsWithAt(bytes, JPEG_MAGIC, 0)) return "jpeg";
  if (startsWithAt(bytes, PNG_MAGIC, 0)) return "png";
  const lastStart = Math.min(bytes.length, PDF_HEADER_WINDOW) - PDF_MAGIC.length;
  for (let offset = 0; offset <= lastStart; offset++) {
    if (startsWithAt(bytes, PDF_MAGIC, offset)) return "pdf";
  }
  return null;
}

function startsWithAt(bytes: Uint8Array, magic: readonly number[], offset: number): boolean {
  if (bytes.length < offset + magic.length) return false;
  return magic.every((byte, index) => bytes[offset + index] === byte);
}
