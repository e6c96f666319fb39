import { t, type Static } from "elysia";
import { ERROR_CODES } from "../../errors.ts";

export const ErrorBody = t.Object(
  {
    error: t.Object({
      code: t.UnionEnum([...ERROR_CODES], { description: "Stable machine-readable error code." }),
      message: t.String({ description: "Human-readable explanation; do not parse." }),
      details: t.Optional(t.Unknown({ description: "Structured detail, e.g. which field failed validation." })),
      requestId: t.String({
        description: "Quote this when reporting a problem; it is also in the X-Request-Id header.",
      }),
    }),
  },
  {
    examples: [
      { error: { code: "VALIDATION_ERROR", message: "documentUrl must use https", requestId: "req_5c2a0e1f9b3d4a7c" } },
    ],
  },
);

export type ErrorBody = Static<typeof ErrorBody>;
