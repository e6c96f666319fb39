import { t } from "elysia";
import { ERROR_CODES } from "../../errors.ts";
import { VerificationResult } from "./verification.ts";

/**
 * What each batch document's webhook carries (README "Webhooks"): its result, or `error` for a
 * document that failed.
 */
const WebhookPayload = t.Object(
  {
    batchId: t.String({ format: "uuid" }),
    documentIndex: t.Integer({ minimum: 0, description: "Zero-based position in the submitted `documents` array." }),
    result: t.Optional(VerificationResult),
    error: t.Optional(
      t.Object({
        code: t.UnionEnum([...ERROR_CODES], {
          description: "A code of the verify endpoint's error table, e.g. UNSUPPORTED_FORMAT.",
        }),
        message: t.String(),
      }),
    ),
  },
  { description: "Exactly one of `result` or `error` is present." },
);

const header = (name: string, description: string, example: string) => ({
  name,
  in: "header" as const,
  required: true,
  description,
  schema: { type: "string" as const },
  example,
});

/** The OpenAPI 3.1 `webhooks` entry, so integrators see the callback in the Swagger UI. */
export const WEBHOOK_DOCUMENTATION = {
  batchDocumentResult: {
    post: {
      operationId: "batchDocumentResult",
      summary: "One batch document's result, POSTed to your callbackUrl",
      // The receiver authenticates us by the signatures, not by a bearer key.
      security: [],
      description:
        "Verify a signature before trusting the body. Two are sent, both keyed with the UTF-8 bytes of your `callbackSecret`: `X-Service-Signature` is `sha256=` + the lowercase hex HMAC-SHA256 of the exact raw body bytes (GitHub's scheme), and `webhook-signature` is `v1,` + the base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body` (Standard Webhooks), which also signs the attempt's time, so a receiver can refuse old or replayed deliveries (Standard Webhooks verifiers take the key as `whsec_` + the base64 of the secret's UTF-8 bytes). Answer any 2xx within 15 s; otherwise the same delivery (same `X-Service-Delivery` and `webhook-id`, same bytes) is retried after 1, 5 and 30 minutes, each attempt with its own timestamp and signature. Delivery is at least once: de-duplicate on `webhook-id`.",
      tags: ["Batches"],
      parameters: [
        header("X-Service-Signature", "sha256=<lowercase hex HMAC-SHA256 of the raw body>", "sha256=5d4f…"),
        header("X-Service-Delivery", "Delivery UUID, the same across retries", "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b"),
        header(
          "X-Service-Timestamp",
          "Unix seconds of this attempt (not covered by X-Service-Signature; the same value as webhook-timestamp)",
          "1795352400",
        ),
        header(
          "webhook-id",
          "Standard Webhooks: the delivery UUID, the same as X-Service-Delivery",
          "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b",
        ),
        header(
          "webhook-timestamp",
          "Standard Webhooks: Unix seconds of this attempt, covered by webhook-signature",
          "1795352400",
        ),
        header(
          "webhook-signature",
          "Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body`, keyed with the UTF-8 bytes of callbackSecret",
          "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        ),
      ],
      // A TypeBox schema is JSON Schema; its TypeScript type carries symbols OpenAPI types do not
      // know.
      requestBody: {
        required: true,
        content: { "application/json": { schema: WebhookPayload as Record<string, unknown> } },
      },
      responses: { "2XX": { description: "Received; no retry." } },
    },
  },
};
