// A base64 document from a JSON body: plain base64 or a data URL, line breaks tolerated.
// The size limit applies to the decoded bytes (the API contract) and is checked before decoding.

import { AppError } from "../errors.ts";
import { LIMITS } from "./document.ts";

const DATA_URL = /^data:([^,]*),/i;

export function decodeBase64Document(input: string, maxBytes: number = LIMITS.uploadBytes): Uint8Array {
  const payload = stripDataUrl(input).replace(/\s+/g, "");
  if (payload.length === 0) throw new AppError("VALIDATION_ERROR", "document is empty");
  if (decodedLength(payload) > maxBytes) {
    throw new AppError("FILE_TOO_LARGE", `document is larger than ${maxBytes} bytes once decoded`);
  }
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(padded(payload));
  } catch {
    throw new AppError("VALIDATION_ERROR", "document is not valid base64");
  }
  if (bytes.byteLength > maxBytes) {
    throw new AppError("FILE_TOO_LARGE", `document is larger than ${maxBytes} bytes once decoded`);
  }
  return bytes;
}

// The data URL's MIME type is the sender's claim and is ignored: sniffing decides the format.
function stripDataUrl(input: string): string {
  const trimmed = input.trimStart();
  const match = DATA_URL.exec(trimmed);
  if (match === null) return input;
  const parameters = (match[1] ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (!parameters.includes("base64"))
    throw new AppError("VALIDATION_ERROR", "document data URL must be base64-encoded");
  return trimmed.slice(match[0].length);
}

/** Exact decoded size of well-formed base64 (an overestimate by at most 2 otherwise). */
function decodedLength(payload: string): number {
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return Math.floor(((payload.length - padding) * 3) / 4);
}

// Senders often drop the trailing '=' padding; Bun's decoder insists on it.
function padded(payload: string): string {
  const remainder = payload.length % 4;
  return remainder === 0 ? payload : payload + "=".repeat(4 - remainder);
}
