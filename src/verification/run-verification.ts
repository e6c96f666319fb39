// One document through analysis into a public result (spec 2.1) and its stored report.
// Shared by the single verify endpoint and the batch worker so both answer alike.
import { randomBytes } from "node:crypto";
import type { Analyzer } from "../analysis/analyzer";
import type { AnalysisReport } from "../analysis/report";
import type { IntakeDocument } from "../intake/document";
import type { VerificationResult } from "../api/schemas/verification";
import type { Clock } from "../clock";

export const newVerificationId = (): string => "ver_" + randomBytes(16).toString("hex");

export interface VerificationOutcome {
  result: VerificationResult;
  report: AnalysisReport;
}

export async function runVerification(input: { analyzer: Analyzer; document: IntakeDocument; sandbox: boolean; clock: Clock; startedAt?: number }): Promise<VerificationOutcome> {
  const startedAt = input.startedAt ?? input.clock.now();
  const report = await input.analyzer.analyze(input.document);
  const result: VerificationResult = {
    id: newVerificationId(),
    forgeryScore: Math.round(report.forgeryScore * 1000) / 1000,
    confidence: report.confidence,
    documentType: report.documentType,
    flags: report.flags,
    latencyMs: Math.max(0, Math.round(input.clock.now() - startedAt)),
    ...(input.sandbox ? { sandbox: true as const } : {}),
  };
  return { result, report };
}
