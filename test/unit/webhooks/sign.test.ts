import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { verify as verifyGithubSignature } from "@octokit/webhooks-methods";
import { deliveryHeaders, signStandardWebhook } from "../../../src/webhooks/sign.ts";

// The Standard Webhooks verifier takes its key as `whsec_` + base64; ours is the UTF-8 bytes
// of callbackSecret, so a receiver hands the verifier the base64 of those bytes.
const verifierFor = (secret: string) => new Webhook(`whsec_${Buffer.from(secret, "utf8").toString("base64")}`);

describe("delivery signatures", () => {
  const body = new TextEncoder().encode(
    JSON.stringify({
      batchId: "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918",
      documentIndex: 0,
      error: { code: "UNSUPPORTED_FORMAT", message: "x" },
    }),
  );
  const id = "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b";

  test.each([
    ["ascii", "a-callback-secret-of-some-length"],
    ["non-ascii", "sécret-ünïcode-🔑-long-enough"],
  ])("agree with the standardwebhooks package and @octokit/webhooks-methods (%s secret)", async (_, secret) => {
    const nowMs = Date.now();
    const headers = deliveryHeaders({ secret, deliveryId: id, body, nowMs });
    const timestamp = Math.floor(nowMs / 1000);
    expect(headers["webhook-id"]).toBe(id);
    expect(headers["webhook-timestamp"]).toBe(String(timestamp));
    expect(headers["x-service-timestamp"]).toBe(String(timestamp));
    expect(headers["webhook-signature"]).toBe(
      verifierFor(secret).sign(id, new Date(timestamp * 1000), Buffer.from(body).toString()),
    );
    expect(verifierFor(secret).verify(Buffer.from(body).toString(), headers)).toEqual(
      JSON.parse(Buffer.from(body).toString()),
    );
    expect(await verifyGithubSignature(secret, Buffer.from(body).toString(), headers["x-service-signature"]!)).toBe(
      true,
    );
  });

  test("a verifier refuses a stale timestamp, another id, another body and another secret", () => {
    const secret = "a-callback-secret-of-some-length";
    const old = Date.now() - 10 * 60_000;
    const stale = deliveryHeaders({ secret, deliveryId: id, body, nowMs: old });
    expect(() => verifierFor(secret).verify(Buffer.from(body).toString(), stale)).toThrow("Message timestamp too old");

    const fresh = deliveryHeaders({ secret, deliveryId: id, body, nowMs: Date.now() });
    expect(() =>
      verifierFor(secret).verify(Buffer.from(body).toString(), { ...fresh, "webhook-id": "another" }),
    ).toThrow("No matching signature");
    expect(() => verifierFor(secret).verify(`${Buffer.from(body).toString()} `, fresh)).toThrow(
      "No matching signature",
    );
    expect(() => verifierFor("another-secret-of-some-length").verify(Buffer.from(body).toString(), fresh)).toThrow(
      "No matching signature",
    );
  });

  test("signs the timestamp it is given, so every attempt carries its own", () => {
    const secret = "a-callback-secret-of-some-length";
    expect(signStandardWebhook(secret, id, 1, body)).not.toBe(signStandardWebhook(secret, id, 2, body));
    expect(signStandardWebhook(secret, id, 1, body)).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });
});
