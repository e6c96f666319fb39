// The delivery log of a batch and redelivery on request: integrators see every attempt of
// every webhook and can have one sent again (same id, same bytes) after fixing a receiver.
import { Elysia, t } from "elysia";
import { AppError } from "../errors.ts";
import type { BatchRecord } from "../store/batches.ts";
import type { DeliveryLog } from "../store/outbox.ts";
import { UUID_PATTERN } from "./schemas/batch.ts";
import { BatchDeliveries, Delivery } from "./schemas/delivery.ts";
import { ErrorBody } from "./schemas/error.ts";
import { keyOf } from "./request-context.ts";
import type { AppDeps } from "./deps.ts";

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

function toDelivery(log: DeliveryLog): Delivery {
  return {
    deliveryId: log.deliveryId,
    documentIndex: log.documentIndex,
    state: log.state,
    attempts: log.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      kind: attempt.kind,
      at: iso(attempt.startedAt),
      durationMs: attempt.durationMs,
      status: attempt.status,
      error: attempt.error,
    })),
    nextAttemptAt: log.nextAttemptAt === null ? null : iso(log.nextAttemptAt),
  };
}

/** Another key's batch is indistinguishable from a missing one. */
async function batchOfKey(deps: AppDeps, request: Request, batchId: string): Promise<BatchRecord> {
  const key = keyOf(request);
  const batch = UUID_PATTERN.test(batchId) ? await deps.store.batches.get(batchId) : null;
  if (!batch || batch.keyId !== key.id) throw new AppError("NOT_FOUND", "No such batch");
  return batch;
}

const BatchIdParam = t.String({
  description: "The identifier returned at submission.",
  examples: ["0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918"],
});

export const deliveryRoutes = (deps: AppDeps) =>
  new Elysia({ name: "deliveries" })
    .get(
      "/api/v1/batches/:batchId/deliveries",
      async ({ params, request }) => {
        const batch = await batchOfKey(deps, request, params.batchId);
        return {
          data: { batchId: batch.id, deliveries: (await deps.store.outbox.listForBatch(batch.id)).map(toDelivery) },
        };
      },
      {
        params: t.Object({ batchId: BatchIdParam }),
        response: { 200: t.Object({ data: BatchDeliveries }), 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        detail: {
          operationId: "listBatchDeliveries",
          summary: "Read the webhook delivery log of a batch",
          description:
            "Per document: its delivery id, state, every attempt (time, HTTP status or connection error, duration) and when the next attempt is due.",
          tags: ["Batches"],
          security: [{ bearerAuth: [] }],
        },
      },
    )
    .post(
      "/api/v1/batches/:batchId/deliveries/:deliveryId/redeliver",
      async ({ params, request, set }) => {
        const batch = await batchOfKey(deps, request, params.batchId);
        const found =
          UUID_PATTERN.test(params.deliveryId) &&
          (await deps.store.outbox.requestRedelivery(batch.id, params.deliveryId, deps.clock.now()));
        if (!found) throw new AppError("NOT_FOUND", "No such delivery in this batch");
        deps.wakeDispatcher();
        set.status = 202;
        return { data: toDelivery((await deps.store.outbox.find(batch.id, params.deliveryId))!) };
      },
      {
        params: t.Object({
          batchId: BatchIdParam,
          deliveryId: t.String({
            description: "A delivery id from the delivery log or a webhook's `webhook-id`.",
            examples: ["8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b"],
          }),
        }),
        response: { 202: t.Object({ data: Delivery }), 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        detail: {
          operationId: "redeliverBatchDelivery",
          summary: "Send one delivery again now",
          description:
            "Sends the delivery again at once with the same delivery id and the same body bytes (fresh timestamp and signatures), whatever its state: a delivered one too. It is one attempt outside the retry schedule, logged with `kind: redelivery`; a 2xx marks the delivery delivered, a failure leaves its state and schedule as they were.",
          tags: ["Batches"],
          security: [{ bearerAuth: [] }],
        },
      },
    );
