// Proves a PDF opens as it stands: mupdf parses it without rebuilding a broken
// cross-reference table (what a cut-off file needs), and it has a first page that loads.

import { mupdf } from "../pdf/mupdf.ts";
import { AppError } from "../errors.ts";

const EOF_MARKER = Buffer.from("%%EOF");
// Readers look for %%EOF in the last 1024 bytes (PDF Reference 1.7, H.3 note 18).
const EOF_WINDOW = 1024;
const PDF_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

export function assertDecodablePdf(bytes: Uint8Array): void {
  assertEndsAtEofMarker(bytes);

  let document: mupdf.Document;
  try {
    document = mupdf.Document.openDocument(bytes, "application/pdf");
  } catch (error) {
    throw unsupported("the PDF could not be parsed", error);
  }
  try {
    const pdf = document.asPDF();
    if (pdf === null) throw unsupported("the document is not a PDF");
    if (pdf.wasRepaired()) throw unsupported("the PDF cross-reference table is broken (truncated or corrupt)");
    if (document.needsPassword()) throw unsupported("the PDF is password-protected");
    if (document.countPages() < 1) throw unsupported("the PDF has no pages");
    document.loadPage(0).destroy();
  } catch (error) {
    throw error instanceof AppError ? error : unsupported("the PDF could not be parsed", error);
  } finally {
    document.destroy();
  }
}

// mupdf silently falls back to an earlier revision when a file is cut inside its last
// incremental update, and ignores a cut-off %%EOF; both truncations are caught here. The
// price: a PDF with non-blank bytes appended after its last %%EOF is refused too.
function assertEndsAtEofMarker(bytes: Uint8Array): void {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-EOF_WINDOW);
  const marker = tail.lastIndexOf(EOF_MARKER);
  if (marker === -1) throw unsupported("the PDF is truncated (no %%EOF at its end)");
  if (!tail.subarray(marker + EOF_MARKER.length).every((byte) => PDF_WHITESPACE.has(byte))) {
    throw unsupported("the PDF does not end at its %%EOF marker (truncated update or appended data)");
  }
}

function unsupported(message: string, cause?: unknown): AppError {
  return new AppError("UNSUPPORTED_FORMAT", message, { cause });
}
