import { Elysia, t } from "elysia";
import { AppError } from "../errors.ts";
import { LIMITS } from "../intake/document.ts";
import { decodeBase64Document } from "../intake/base64.ts";
import { parseHttpsUrl } from "../net/address-policy.ts";
import { checkCallbackUrl } from "../webhooks/callback-url.ts";
import { withReservation } from "../limits/billing.ts";
import { Batch, BatchAcknowledgement, BatchRequest, UUID_PATTERN } from "./schemas/batch.ts";
import { ErrorBody } from "./schemas/error.ts";
import { readBody } from "./read-body.ts";
import { holdBodyMemory } from "./body-memory.ts";
import { BODY_LIMITS } from "./body-limits.ts";
import { keyOf } from "./request-context.ts";
import { IDEMPOTENCY_PARAMETER } from "./schemas/idempotency.ts";
import { runIdempotently, type Answer } from "./idempotency.ts";
import type { AppDeps } from "./deps.ts";

/** Decodes every document up front so a bad one is refused before anything is stored. */
function decodeAll(documents: string[]): Uint8Array[] {
  return documents.map((document, index) => {
    try {
      return decodeBase64Document(document, LIMITS.uploadBytes);
    } catch (error) {
      if (error instanceof AppError && error.code === "VALIDATION_ERROR") {
        throw new AppError("VALIDATION_ERROR", `documents[${index}]: ${error.message}`, {
          details: [{ path: `/documents/${index}`, message: error.message }],
        });
      }
      throw error;
    }
  });
}

export const batchRoutes = (deps: AppDeps) =>
  new Elysia({ name: "batches" })
    .post(
      "/api/v1/verify/batch",
      ({ body, request, set }) =>
        runIdempotently(deps, request, set, async (): Promise<Answer<{ data: BatchAcknowledgement }>> => {
          const key = keyOf(request);
          const callbackUrl = parseHttpsUrl(body.callbackUrl, "callbackUrl");
          await checkCallbackUrl(callbackUrl, deps.config.allowPrivateUrls);
          const documents = decodeAll(body.documents);
          const now = deps.clock.now();
          const billing = {
            usage: deps.store.usage,
            key,
            documents: documents.length,
            pricePerDocument: deps.config.pricePerDocument,
            nowMs: now,
          };
          const batch = await withReservation(billing, () =>
            deps.store.batches.create({
              keyId: key.id,
              sandbox: key.mode === "test",
              callbackUrl: callbackUrl.href,
              callbackSecret: body.callbackSecret,
              documents,
              now,
            }),
          );
          deps.wakeBatchWorker();
          return {
            status: 202,
            body: { data: { batchId: batch.id, totalDocuments: batch.total, status: "processing" as const } },
          };
        }),
      {
        // See verify.ts: the named parser only tells the OpenAPI document the media type.
        parse: [
          async ({ request }) => {
            // The body and the documents decoded from it count against the memory limit until
            // answered.
            await holdBodyMemory(deps.memory, request, BODY_LIMITS.batch, deps.config.verifyQueueWaitMs);
            return readBody(request, BODY_LIMITS.batch);
          },
          "application/json",
        ],
        body: BatchRequest,
        response: {
          202: t.Object({ data: BatchAcknowledgement }),
          400: ErrorBody,
          401: ErrorBody,
          402: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
        },
        detail: {
          summary: "Submit up to 50 documents for asynchronous analysis",
          description:
            "Documents are stored durably before the 202 is sent. Each document's result is POSTed to `callbackUrl` as `{ batchId, documentIndex, result }` (or `error` for a document that could not be analysed), signed with `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>` using `callbackSecret`, with `X-Service-Delivery` (stable across retries) and `X-Service-Timestamp`, and with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (see the `batchDocumentResult` webhook). Non-2xx answers are retried after 1, 5 and 30 minutes.",
          tags: ["Batches"],
          security: [{ bearerAuth: [] }],
          parameters: [IDEMPOTENCY_PARAMETER],
        },
      },
    )
    .get(
      "/api/v1/batches/:batchId",
      async ({ params, request }) => {
        const key = keyOf(request);
        const batch = UUID_PATTERN.test(params.batchId) ? await deps.store.batches.get(params.batchId) : null;
        if (!batch || batch.keyId !== key.id) throw new AppError("NOT_FOUND", "No such batch");
        const data: Batch = {
          batchId: batch.id,
          totalDocuments: batch.total,
          completedCount: batch.completed,
          failedCount: batch.failed,
          status: batch.status,
          createdAt: new Date(batch.createdAt).toISOString(),
          verificationIds: await deps.store.verifications.idsOfBatch(batch.id),
        };
        return { data };
      },
      {
        params: t.Object({ batchId: t.String({ description: "The identifier returned at submission." }) }),
        response: { 200: t.Object({ data: Batch }), 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        detail: { summary: "Read a batch's status and progress", tags: ["Batches"], security: [{ bearerAuth: [] }] },
      },
    );
