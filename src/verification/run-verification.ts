// One document through analysis into a public result (the `VerificationResult` schema,
// src/api/schemas/verification.ts) and its stored report.
// Shared by the single verify endpoint and the batch worker so both answer alike.
import { randomBytes } from "node:crypto";
import type { Analyzer } from "../analysis/analyzer.ts";
import type { AnalysisReport } from "../analysis/report.ts";
import type { IntakeDocument } from "../intake/document.ts";
import type { VerificationResult } from "../api/schemas/verification.ts";
import type { Clock } from "../clock.ts";
import type { MemoryHold } from "../limits/memory-budget.ts";

export const newVerificationId = (): string => `ver_${randomBytes(16).toString("hex")}`;

export interface VerificationOutcome {
  result: VerificationResult;
  report: AnalysisReport;
}

export interface VerificationInput {
  analyzer: Analyzer;
  document: IntakeDocument;
  /**
   * The submitting key: duplicates are looked for among its own earlier documents (null: no key, no
   * duplicate check).
   */
  keyId: string | null;
  sandbox: boolean;
  clock: Clock;
  startedAt?: number;
  /** Memory the request holds for its body, counted beside the analysis's (see AnalysisContext). */
  memoryHeld?: MemoryHold;
}

export async function runVerification(input: VerificationInput): Promise<VerificationOutcome> {
  const startedAt = input.startedAt ?? input.clock.now();
  // The id exists before the analysis so that the document's fingerprint can name it.
  const id = newVerificationId();
  const report = await input.analyzer.analyze(input.document, {
    keyId: input.keyId,
    verificationId: id,
    ...(input.memoryHeld ? { memoryHeld: input.memoryHeld } : {}),
  });
  const result: VerificationResult = {
    id,
    forgeryScore: Math.round(report.forgeryScore * 1000) / 1000,
    confidence: report.confidence,
    documentType: report.documentType,
    flags: report.flags,
    latencyMs: Math.max(0, Math.round(input.clock.now() - startedAt)),
    ...(input.sandbox ? { sandbox: true as const } : {}),
  };
  return { result, report };
}
