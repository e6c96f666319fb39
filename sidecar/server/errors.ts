// Why a document was refused, as the gRPC status the API maps to its own error codes
// (see proto/docverify/sidecar/v1/analyzer.proto). Messages name limits and formats, never content.
import { Metadata, type ServiceError, status } from "@grpc/grpc-js";

export class DocumentRefused extends Error {
  constructor(
    readonly code: status.INVALID_ARGUMENT | status.RESOURCE_EXHAUSTED | status.UNAVAILABLE | status.CANCELLED,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DocumentRefused";
  }
}

/** Not a decodable document of the declared format, or a stream that broke the protocol. */
export const invalidDocument = (message: string, cause?: unknown) =>
  new DocumentRefused(status.INVALID_ARGUMENT, message, { cause });

/** Over a limit of bytes, pixels or time. */
export const overLimit = (message: string, cause?: unknown) =>
  new DocumentRefused(status.RESOURCE_EXHAUSTED, message, { cause });

/** Anything else is a fault of the sidecar: INTERNAL, with a message that reveals nothing. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  if (error instanceof DocumentRefused) return { code: error.code, details: error.message, metadata: new Metadata() };
  return { code: status.INTERNAL, details: "the sidecar failed to analyse the document", metadata: new Metadata() };
}
