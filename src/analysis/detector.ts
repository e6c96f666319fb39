// What every detector shares: limits, the time budget and how a failure is recorded.
import { isAppError } from "../errors.ts";
import type { DetectorName } from "./manifest.ts";
import type { DetectorResult } from "./report.ts";

export interface AnalysisLimits {
  /** Largest image decoded, in pixels (width × height). */
  maxPixels: number;
  /** Pages of a PDF that are read; the rest lower coverage. */
  maxPdfPages: number;
  /** Wall time for one document's analysis; work past it is skipped, lowering coverage. */
  timeBudgetMs: number;
}

export const DEFAULT_LIMITS: AnalysisLimits = {
  maxPixels: 50_000_000,
  maxPdfPages: 50,
  timeBudgetMs: 20_000,
};

export interface Budget {
  /** True once the document's time budget is spent. */
  expired(): boolean;
}

export const startBudget = (ms: number, now: () => number = Date.now): Budget => {
  const deadline = now() + ms;
  return { expired: () => now() >= deadline };
};

/** The kind of a failure, never its message: messages can quote document bytes. */
const failureKind = (error: unknown): string => {
  if (isAppError(error)) return error.code;
  if (error instanceof Error) return error.name || "Error";
  return typeof error;
};

/** Runs one detector; an unexpected failure becomes coverage 0 with its kind recorded. */
export const runDetector = async (
  detector: DetectorName,
  run: () => Promise<DetectorResult> | DetectorResult,
): Promise<DetectorResult> => {
  try {
    return await run();
  } catch (error) {
    return { detector, evidence: [], facts: { failed: failureKind(error) }, coverage: 0, status: "failed" };
  }
};

/**
 * The result marked as having nothing to judge on this kind of document (no MRZ on a bank
 * statement, no sums on a passport): its zero coverage is no blind spot. Typed for the fusion,
 * and `applicable: false` (with the reason) for people.
 */
export const notApplicable = (result: DetectorResult, reason?: string): DetectorResult => ({
  ...result,
  facts: { ...result.facts, applicable: false, ...(reason === undefined ? {} : { reason }) },
  status: "not-applicable",
});
