import { Elysia, t } from "elysia";
import { AppError } from "../errors.ts";
import { LIMITS } from "../intake/document.ts";
import { decodeBase64Document } from "../intake/base64.ts";
import { validateDocument } from "../intake/validate.ts";
import { parseHttpsUrl } from "../net/address-policy.ts";
import { withReservation } from "../limits/billing.ts";
import { runVerification } from "../verification/run-verification.ts";
import { VerificationResult } from "./schemas/verification.ts";
import { ErrorBody } from "./schemas/error.ts";
import { readBody } from "./read-body.ts";
import { holdBodyMemory } from "./body-memory.ts";
import { BODY_LIMITS } from "./body-limits.ts";
import { contextOf, keyOf } from "./request-context.ts";
import { IDEMPOTENCY_PARAMETER } from "./schemas/idempotency.ts";
import { runIdempotently, type Answer } from "./idempotency.ts";
import type { AppDeps } from "./deps.ts";

const [MultipartBody, Base64Body, UrlBody] = [
  t.Object(
    { document: t.File({ description: "JPEG, PNG or PDF; at most 4,500,000 bytes. multipart/form-data only." }) },
    { title: "Multipart upload", additionalProperties: false },
  ),
  t.Object(
    {
      document: t.String({
        minLength: 1,
        description: "Base64 of a JPEG, PNG or PDF, or a data URL; at most 4,500,000 decoded bytes.",
      }),
    },
    { title: "Base64 document", additionalProperties: false },
  ),
  t.Object(
    {
      documentUrl: t.String({
        minLength: 1,
        description: "HTTPS URL of a JPEG, PNG or PDF; fetched by the service; at most 10,000,000 bytes.",
      }),
    },
    { title: "Document URL", additionalProperties: false },
  ),
] as const;

const VerifyRequest = t.Union([MultipartBody, Base64Body, UrlBody], {
  error:
    "Send exactly one of: a multipart `document` file, a JSON `document` (base64 or data URL), or a JSON `documentUrl`",
});

async function documentBytes(
  body: typeof VerifyRequest.static,
  fetchDocument: AppDeps["fetchDocument"],
): Promise<Uint8Array> {
  if ("documentUrl" in body) return fetchDocument(parseHttpsUrl(body.documentUrl, "documentUrl").href);
  if (typeof body.document === "string") return decodeBase64Document(body.document, LIMITS.uploadBytes);
  if (body.document.size > LIMITS.uploadBytes)
    throw new AppError("FILE_TOO_LARGE", `The document exceeds ${LIMITS.uploadBytes} bytes`);
  return new Uint8Array(await body.document.arrayBuffer());
}

export const verifyRoutes = (deps: AppDeps) =>
  new Elysia({ name: "verify" }).post(
    "/api/v1/verify",
    ({ body, request, set }) =>
      runIdempotently(deps, request, set, async (): Promise<Answer<{ data: VerificationResult }>> => {
        const key = keyOf(request);
        const startedAt = deps.clock.now();
        const billing = {
          usage: deps.store.usage,
          key,
          documents: 1,
          pricePerDocument: deps.config.pricePerDocument,
          nowMs: startedAt,
        };
        return withReservation(billing, async () => {
          const bytes = await documentBytes(body, deps.fetchDocument);
          // Decoding and analysis take a turn; fetching a documentUrl does not hold one.
          const endTurn = await deps.verifyAdmission.enter();
          try {
            const document = await validateDocument(bytes, { validatePdf: deps.analyzer.validatePdf });
            const { result, report } = await runVerification({
              analyzer: deps.analyzer,
              document,
              keyId: key.id,
              sandbox: key.mode === "test",
              clock: deps.clock,
              startedAt,
              memoryHeld: contextOf(request)?.bodyMemory,
            });
            await deps.store.verifications.insert({ keyId: key.id, result, report, createdAt: deps.clock.now() });
            deps.metrics.documentAnalysed(result, report);
            return { status: 200, body: { data: result } };
          } finally {
            endTurn();
          }
        });
      }),
    {
      // Our size-limited reader always answers; the named parsers after it never run and
      // are there so the OpenAPI document lists the media types this route accepts.
      parse: [
        async ({ request }) => {
          // A verify that would only be refused for want of room is refused before its body is
          // read.
          deps.verifyAdmission.refuseIfFull();
          const multipart = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/");
          const maxBytes = multipart ? BODY_LIMITS.verifyMultipart : BODY_LIMITS.verifyJson;
          await holdBodyMemory(deps.memory, request, maxBytes, deps.config.verifyQueueWaitMs);
          return readBody(request, maxBytes);
        },
        "application/json",
        "multipart/form-data",
      ],
      body: VerifyRequest,
      response: {
        200: t.Object({ data: VerificationResult }),
        400: ErrorBody,
        401: ErrorBody,
        402: ErrorBody,
        409: ErrorBody,
        422: ErrorBody,
        429: ErrorBody,
        503: ErrorBody,
      },
      detail: {
        summary: "Analyse one document",
        description:
          "Submits one JPEG, PNG or PDF for forgery analysis and returns the result. Send exactly one of: a multipart `document` file, a JSON `document` (base64 or data URL), or a JSON `documentUrl` (HTTPS).",
        tags: ["Verification"],
        security: [{ bearerAuth: [] }],
        parameters: [IDEMPOTENCY_PARAMETER],
      },
    },
  );
