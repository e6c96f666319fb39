import { t, type Static } from "elysia";

const DELIVERY_ID_EXAMPLE = "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b";

const DeliveryAttempt = t.Object(
  {
    attempt: t.Integer({ minimum: 1, description: "1 for the first attempt of this delivery, counting redeliveries." }),
    kind: t.UnionEnum(["scheduled", "redelivery"], {
      description:
        "`scheduled`: the first attempt or a retry of the schedule; `redelivery`: asked for with the redeliver endpoint.",
      default: undefined,
    }),
    at: t.String({ format: "date-time", description: "When the attempt started." }),
    durationMs: t.Integer({ minimum: 0, description: "How long the receiver took to answer, or the attempt to fail." }),
    status: t.Union([t.Integer({ minimum: 100, maximum: 599 }), t.Null()], {
      description: "The receiver's HTTP status; null when no answer came.",
    }),
    error: t.Union([t.String(), t.Null()], {
      description: "Why no answer came (connection refused, TLS, timeout…); null when the receiver answered.",
    }),
  },
  { additionalProperties: false },
);

export const Delivery = t.Object(
  {
    deliveryId: t.String({
      format: "uuid",
      description: "The delivery's id: `webhook-id` and `X-Service-Delivery` of every attempt.",
      examples: [DELIVERY_ID_EXAMPLE],
    }),
    documentIndex: t.Integer({ minimum: 0, description: "Zero-based position of the document in the batch." }),
    state: t.UnionEnum(["pending", "delivered", "failed"], {
      description:
        "`pending` while attempts remain; `delivered` once a receiver answered 2xx; `failed` when the retry schedule ran out.",
      default: undefined,
    }),
    attempts: t.Array(DeliveryAttempt, { description: "Every attempt, oldest first." }),
    nextAttemptAt: t.Union([t.String({ format: "date-time" }), t.Null()], {
      description: "When the next attempt is due (a requested redelivery included); null when none will be made.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        deliveryId: DELIVERY_ID_EXAMPLE,
        documentIndex: 0,
        state: "pending",
        attempts: [
          { attempt: 1, kind: "scheduled", at: "2026-11-22T10:00:01.000Z", durationMs: 84, status: 503, error: null },
        ],
        nextAttemptAt: "2026-11-22T10:01:01.000Z",
      },
    ],
  },
);

export type Delivery = Static<typeof Delivery>;

export const BatchDeliveries = t.Object(
  {
    batchId: t.String({ format: "uuid" }),
    deliveries: t.Array(Delivery, {
      description:
        "One delivery per document whose result is ready, by document index; a document still being analysed has none yet.",
    }),
  },
  { additionalProperties: false },
);
