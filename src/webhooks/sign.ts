// Two signatures over each delivery, both keyed with the UTF-8 bytes of the batch's
// callbackSecret: GitHub's scheme (the contract's X-Service-Signature, body only) and the
// Standard Webhooks scheme, which also signs the delivery id and the attempt's timestamp so
// a receiver can refuse an old or replayed delivery with an off-the-shelf verifier.
import { createHmac } from "node:crypto";

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes (GitHub's scheme). */
const signBody = (secret: string, body: Uint8Array): string =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/**
 * `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (Standard Webhooks). The key is the
 * secret's UTF-8 bytes; a Standard Webhooks verifier takes them as `whsec_` + their base64.
 */
export const signStandardWebhook = (
  secret: string,
  deliveryId: string,
  timestampSec: number,
  body: Uint8Array,
): string =>
  "v1," +
  createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${deliveryId}.${timestampSec}.`)
    .update(body)
    .digest("base64");

/** The headers one attempt carries; the timestamp is the attempt's, so retries are fresh. */
export function deliveryHeaders(input: {
  secret: string;
  deliveryId: string;
  body: Uint8Array;
  nowMs: number;
}): Record<string, string> {
  const timestampSec = Math.floor(input.nowMs / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "docverify-webhooks/1",
    "x-service-signature": signBody(input.secret, input.body),
    "x-service-delivery": input.deliveryId,
    "x-service-timestamp": String(timestampSec),
    "webhook-id": input.deliveryId,
    "webhook-timestamp": String(timestampSec),
    "webhook-signature": signStandardWebhook(input.secret, input.deliveryId, timestampSec, input.body),
  };
}
