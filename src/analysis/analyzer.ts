// The seam between the service and the analysis: the API, batches and the CLI depend on
// this interface, not on which detectors run or where.
import type { IntakeDocument } from "../intake/document.ts";
import type { AnalysisReport } from "./report.ts";
import type { MemoryHold } from "../limits/memory-budget.ts";

export interface AnalysisContext {
  /**
   * The API key the document came with: duplicates are looked for among its own documents only.
   * Null outside the service (`docverify analyze`): no duplicate check.
   */
  keyId: string | null;
  /** The id the verification will be stored under, so a later duplicate can name it. */
  verificationId: string;
  /**
   * Memory the caller holds for this document already (a request's body), counted beside the
   * analysis's own.
   */
  memoryHeld?: MemoryHold;
}

export interface Analyzer {
  analyze(doc: IntakeDocument, context: AnalysisContext): Promise<AnalysisReport>;
}
