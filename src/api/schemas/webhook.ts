import { t } from "elysia";
import { ERROR_CODES } from "../../errors";
import { VerificationResult } from "./verification";

/** What each batch document's webhook carries (spec 2.4, plus `error` for a document that failed). */
export const WebhookPayload = t.Object(
  {
    batchId: t.String({ format: "uuid" }),
    documentIndex: t.Integer({ minimum: 0, description: "Zero-based position in the submitted `documents` array." }),
    result: t.Optional(VerificationResult),
    error: t.Optional(
      t.Object({
        code: t.UnionEnum([...ERROR_CODES], { description: "A code of the verify endpoint's error table, e.g. UNSUPPORTED_FORMAT." }),
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
      summary: "One batch document's result, POSTed to your callbackUrl",
      description:
        "Verify `X-Service-Signature` before trusting the body: it is `sha256=` + the lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with your `callbackSecret` (GitHub's scheme). Answer any 2xx within 15 s; otherwise the same delivery (same `X-Service-Delivery`, same bytes) is retried after 1, 5 and 30 minutes. Delivery is at least once: de-duplicate on `X-Service-Delivery`.",
      tags: ["Batches"],
      parameters: [
        header("X-Service-Signature", "sha256=<lowercase hex HMAC-SHA256 of the raw body>", "sha256=5d4f…"),
        header("X-Service-Delivery", "Delivery UUID, the same across retries", "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b"),
        header("X-Service-Timestamp", "Unix seconds of this attempt (not signed)", "1795352400"),
      ],
      // A TypeBox schema is JSON Schema; its TypeScript type carries symbols OpenAPI types do not know.
      requestBody: { required: true, content: { "application/json": { schema: WebhookPayload as Record<string, unknown> } } },
      responses: { "2XX": { description: "Received; no retry." } },
    },
  },
};
