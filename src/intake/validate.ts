// The intake gate: bytes become an IntakeDocument only when their content is a JPEG, PNG
// or PDF that decodes; anything else, truncated files included, is UNSUPPORTED_FORMAT.

import { AppError } from "../errors.ts";
import type { IntakeDocument } from "./document.ts";
import { sniffFormat } from "./sniff.ts";
import { assertDecodableImage } from "./validate-image.ts";
import { assertDecodablePdf } from "./validate-pdf.ts";

export interface ValidateOptions {
  /**
   * Runs assertDecodablePdf somewhere else: the service runs it in its analysis workers, where
   * mupdf's time is bounded and its WebAssembly memory goes away with the worker. Default: here.
   */
  validatePdf?: (bytes: Uint8Array) => Promise<void>;
}

export async function validateDocument(bytes: Uint8Array, options: ValidateOptions = {}): Promise<IntakeDocument> {
  if (bytes.byteLength === 0) throw new AppError("UNSUPPORTED_FORMAT", "the document is empty");
  const format = sniffFormat(bytes);
  if (format === null) throw new AppError("UNSUPPORTED_FORMAT", "the document is not a JPEG, PNG or PDF");
  if (format === "pdf") {
    await (options.validatePdf ?? assertDecodablePdf)(bytes);
    return { bytes, format };
  }
  return { bytes, format, pixels: await assertDecodableImage(bytes, format) };
}
