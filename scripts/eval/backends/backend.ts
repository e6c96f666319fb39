// How the evaluation reaches the analysis: in process through the service's own code path,
// or over HTTP through a running service. Both answer the same Verdict.
import type { EvidenceSummary, Verdict } from "../score-row.ts";

export interface Backend {
  /** Shown in the report: which analysis was measured. */
  readonly description: string;
  verify(bytes: Uint8Array, fileName: string): Promise<Verdict>;
  close(): Promise<void>;
}

/** A document the analysis refused or failed on, with the service's error code. */
export class DocumentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DocumentError";
  }
}

/** The verdict's fields as the service's public result names them, plus the stored evidence. */
export const verdictOf = (
  result: Pick<Verdict, "forgeryScore" | "confidence" | "documentType" | "flags" | "latencyMs">,
  evidence: readonly EvidenceSummary[],
): Verdict => ({
  forgeryScore: result.forgeryScore,
  confidence: result.confidence,
  documentType: result.documentType,
  flags: result.flags,
  evidence: evidence.map(({ flag, detector, strength }) => ({ flag, detector, strength })),
  latencyMs: result.latencyMs,
});
