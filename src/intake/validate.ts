// The intake gate: bytes become an IntakeDocument only when their content is a JPEG, PNG
// or PDF that decodes; anything else, truncated files included, is UNSUPPORTED_FORMAT.

import { AppError } from "../errors.ts";
import type { IntakeDocument } from "./document.ts";
import { sniffFormat } from "./sniff.ts";
import { assertDecodableImage } from "./validate-image.ts";
import { assertDecodablePdf } from "./validate-pdf.ts";

export async function validateDocument(bytes: Uint8Array): Promise<IntakeDocument> {
  if (bytes.byteLength === 0) throw new AppError("UNSUPPORTED_FORMAT", "the document is empty");
  const format = sniffFormat(bytes);
  if (format === null) throw new AppError("UNSUPPORTED_FORMAT", "the document is not a JPEG, PNG or PDF");
  if (format === "pdf") assertDecodablePdf(bytes);
  else await assertDecodableImage(bytes, format);
  return { bytes, format };
}
