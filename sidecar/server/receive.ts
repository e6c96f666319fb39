// Reads one document off a client stream: a header first, then chunks, bounded while they arrive
// (a client that sends more than it declared, or more than the limit, is cut off at that byte).
import type { ServerReadableStream } from "@grpc/grpc-js";
import type { AnalyzeDocumentRequest__Output } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentRequest.ts";
import type { DocumentFormat__Output } from "../../proto/generated/docverify/sidecar/v1/DocumentFormat.ts";
import { status } from "@grpc/grpc-js";
import { DocumentRefused, invalidDocument, overLimit } from "./errors.ts";

type Format = "jpeg" | "png" | "pdf";

export interface ReceivedDocument {
  format: Format;
  bytes: Uint8Array;
}

const FORMATS: Partial<Record<DocumentFormat__Output, Format>> = {
  DOCUMENT_FORMAT_JPEG: "jpeg",
  DOCUMENT_FORMAT_PNG: "png",
  DOCUMENT_FORMAT_PDF: "pdf",
};

export function receiveDocument(
  call: ServerReadableStream<AnalyzeDocumentRequest__Output, unknown>,
  maxBytes: number,
): Promise<ReceivedDocument> {
  return new Promise((resolve, reject) => {
    let format: Format | undefined;
    let buffer: Uint8Array | undefined;
    let received = 0;
    let settled = false;

    const finish = (error: DocumentRefused | null) => {
      if (settled) return;
      settled = true;
      call.removeAllListeners("data");
      if (error) {
        reject(error);
        return;
      }
      if (!format || !buffer) return reject(invalidDocument("the stream ended before a header"));
      if (received !== buffer.length)
        return reject(
          invalidDocument(`the stream carried ${received} of the ${buffer.length} bytes its header declared`),
        );
      resolve({ format, bytes: buffer });
    };

    call.on("data", (message: AnalyzeDocumentRequest__Output) => {
      if (message.part === "header" && message.header) {
        if (format) return finish(invalidDocument("the stream sent a second header"));
        format = FORMATS[message.header.format];
        if (!format) return finish(invalidDocument("the header names no supported format (jpeg, png or pdf)"));
        const size = message.header.sizeBytes;
        if (size > maxBytes)
          return finish(overLimit(`the document is ${size} bytes, more than the ${maxBytes} byte limit`));
        if (size < 1) return finish(invalidDocument("the header declares an empty document"));
        buffer = new Uint8Array(size);
        return;
      }
      if (message.part !== "chunk" || !message.chunk)
        return finish(invalidDocument("a stream message carried neither header nor chunk"));
      if (!buffer) return finish(invalidDocument("the stream sent bytes before its header"));
      const chunk = message.chunk;
      if (received + chunk.length > buffer.length) {
        const error =
          received + chunk.length > maxBytes
            ? overLimit(`the stream carried more than the ${maxBytes} byte limit`)
            : invalidDocument(`the stream carried more than the ${buffer.length} bytes its header declared`);
        return finish(error);
      }
      buffer.set(chunk, received);
      received += chunk.length;
    });
    call.on("end", () => finish(null));
    call.on("error", () => finish(new DocumentRefused(status.CANCELLED, "the client went away")));
    call.on("cancelled", () => finish(new DocumentRefused(status.CANCELLED, "the client cancelled")));
  });
}
