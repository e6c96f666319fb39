import { Elysia, t } from "elysia";
import { AppError } from "../errors.ts";
import { VerificationResult, VERIFICATION_ID_PATTERN } from "./schemas/verification.ts";
import { EvidenceSchema } from "./schemas/evidence.ts";
import { ErrorBody } from "./schemas/error.ts";
import { keyOf } from "./request-context.ts";
import type { AppDeps } from "./deps.ts";

const VerificationWithEvidence = t.Composite([
  VerificationResult,
  t.Object({
    evidence: t.Array(EvidenceSchema, {
      description: "What each detector measured that raised a flag: the explanation of the score.",
    }),
  }),
]);

export const verificationRoutes = (deps: AppDeps) =>
  new Elysia({ name: "verifications" }).get(
    "/api/v1/verifications/:id",
    async ({ params, request }) => {
      const key = keyOf(request);
      const stored = VERIFICATION_ID_PATTERN.test(params.id)
        ? await deps.store.verifications.findForKey(params.id, key.id)
        : null;
      if (!stored) throw new AppError("NOT_FOUND", "No such verification");
      return { data: { ...stored.result, evidence: stored.report.evidence } };
    },
    {
      params: t.Object({ id: t.String({ description: "A verification ID returned by this key." }) }),
      response: { 200: t.Object({ data: VerificationWithEvidence }), 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      detail: {
        summary: "Read a stored verification result with its evidence",
        description: "A key reads only its own results, kept for the configured retention period.",
        tags: ["Verification"],
        security: [{ bearerAuth: [] }],
      },
    },
  );
