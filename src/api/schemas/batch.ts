import { t, type Static } from "elysia";
import { LIMITS } from "../../intake/document.ts";

const BatchId = t.String({
  format: "uuid",
  description: "Batch identifier (UUID).",
  examples: ["0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918"],
});

export const BatchRequest = t.Object(
  {
    documents: t.Array(t.String({ minLength: 1, description: "Base64 of a JPEG, PNG or PDF, or a data URL." }), {
      minItems: 1,
      maxItems: LIMITS.batchDocuments,
      description: `At most ${LIMITS.batchDocuments} documents; the whole request body must be under ${LIMITS.batchBodyBytes} bytes.`,
    }),
    callbackUrl: t.String({ minLength: 1, description: "HTTPS URL that receives one signed webhook per document." }),
    callbackSecret: t.String({
      minLength: LIMITS.callbackSecretMinLength,
      maxLength: 1024,
      description:
        "Key (its UTF-8 bytes) of the HMAC-SHA256 signatures in X-Service-Signature and webhook-signature; at least 16 characters. Stored encrypted, never returned.",
    }),
  },
  { additionalProperties: false },
);

export const BatchAcknowledgement = t.Object(
  {
    batchId: BatchId,
    totalDocuments: t.Integer({ minimum: 1 }),
    status: t.Literal("processing"),
  },
  { examples: [{ batchId: "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918", totalDocuments: 2, status: "processing" }] },
);

export type BatchAcknowledgement = Static<typeof BatchAcknowledgement>;

export const Batch = t.Object(
  {
    batchId: BatchId,
    totalDocuments: t.Integer({ minimum: 1 }),
    completedCount: t.Integer({ minimum: 0, description: "Documents finished, analysed or failed." }),
    failedCount: t.Integer({
      minimum: 0,
      description: "Documents that could not be analysed; their webhook carries `error`.",
    }),
    status: t.Union([t.Literal("processing"), t.Literal("completed")], {
      description: "`processing` while documents are pending; `completed` once every document is done.",
    }),
    createdAt: t.String({ format: "date-time" }),
    verificationIds: t.Array(t.String(), { description: "IDs of the analysed documents (failed ones have none)." }),
  },
  {
    examples: [
      {
        batchId: "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918",
        totalDocuments: 2,
        completedCount: 1,
        failedCount: 0,
        status: "processing",
        createdAt: "2026-11-22T10:00:00.000Z",
        verificationIds: ["ver_3f0c1a9e2b7d4c6f8a1e0b2c3d4e5f60"],
      },
    ],
  },
);

export type Batch = Static<typeof Batch>;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
