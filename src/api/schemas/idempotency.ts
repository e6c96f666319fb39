// The Idempotency-Key request header and the Idempotent-Replayed response header, as the
// OpenAPI document shows them on the endpoints that take a key.
export const IDEMPOTENCY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Makes a retry safe: within 24 hours, the same key with the same request body (per API key) gets the first answer again, status and body byte for byte, with `Idempotent-Replayed: true`, and nothing is analysed, billed or enqueued again. The same key with a different body is refused with 422 `IDEMPOTENCY_KEY_REUSED`; while the first request is still being processed, a second gets 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After`. Answers that a retry could change (401, 402, 429, 5xx, and `FETCH_FAILED`) are not kept.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
  example: "5f1c9a2e-8d4b-4f3a-9c7e-1b2d3e4f5a6b",
};

export const REPLAYED_RESPONSE_HEADER = {
  description: "Present, and `true`, when this is the kept answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string" as const, enum: ["true"] },
  example: "true",
};
