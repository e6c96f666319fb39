// Opening a PDF with mupdf (WASM) for analysis. mupdf repairs what it can; bytes it
// cannot open at all are not a PDF this service can judge.
import { mupdf } from "../../pdf/mupdf.ts";
import { AppError } from "../../errors.ts";

export interface OpenedPdf {
  doc: mupdf.PDFDocument;
  pageCount: number;
  /** mupdf had to rebuild the cross-reference table (damaged or hand-made file). */
  repaired: boolean;
  encrypted: boolean;
}

export const openPdf = (bytes: Uint8Array): OpenedPdf => {
  let doc: mupdf.PDFDocument | null;
  try {
    doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  } catch (cause) {
    throw new AppError("UNSUPPORTED_FORMAT", "The PDF could not be read", { cause });
  }
  if (!doc) throw new AppError("UNSUPPORTED_FORMAT", "The document is not a PDF");
  const encrypted = doc.needsPassword();
  let pageCount = 0;
  try {
    pageCount = encrypted ? 0 : doc.countPages();
  } catch (cause) {
    doc.destroy();
    throw new AppError("UNSUPPORTED_FORMAT", "The PDF page tree could not be read", { cause });
  }
  return { doc, pageCount, repaired: doc.wasRepaired(), encrypted };
};
