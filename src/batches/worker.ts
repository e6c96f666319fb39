// Analyses stored batch documents with bounded concurrency. Each outcome is recorded with
// its webhook in one transaction (BatchStore.recordOutcome). A document whose analyser is
// unreachable is handed back and tried again later: batch documents wait, never drop.
// Several workers (in one process or several) share the queue: each claims with a short
// lease that it renews while it works, so one that dies leaves work others take up soon.
import { randomUUID } from "node:crypto";
import { AppError, isAppError, type ErrorCode } from "../errors.ts";
import { validateDocument } from "../intake/validate.ts";
import { runVerification } from "../verification/run-verification.ts";
import { monthOf, type UsageStore } from "../store/usage.ts";
import type { Analyzer } from "../analysis/analyzer.ts";
import type { BatchStore, ClaimedDocument, DocumentOutcome } from "../store/batches.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics/registry.ts";

/** Codes a failed document's webhook may carry (the verify endpoint's error table). */
const DOCUMENT_ERROR_CODES = new Set<ErrorCode>(["UNSUPPORTED_FORMAT", "FILE_TOO_LARGE", "VALIDATION_ERROR"]);
const MAX_UNEXPECTED_FAILURES = 3;

export interface BatchWorkerOptions {
  batches: BatchStore;
  usage: UsageStore;
  analyzer: Analyzer;
  /** Intake's PDF check off this thread (validateDocument's options); default in process. */
  validatePdf?: (bytes: Uint8Array) => Promise<void>;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  concurrency: number;
  pollMs: number;
  /** How long a claim lasts unless renewed: how soon a dead worker's documents are taken up. */
  leaseMs: number;
  /** Called after an outcome is recorded, so the dispatcher can send without waiting. */
  onRecorded(): void;
}

export class BatchWorker {
  private readonly owner = `worker-${randomUUID()}`;
  private stopping = false;
  private lanes: Promise<void>[] = [];
  private sleepers = new Set<() => void>();

  constructor(private readonly options: BatchWorkerOptions) {}

  start(): void {
    if (this.lanes.length > 0) return;
    this.lanes = Array.from({ length: this.options.concurrency }, () => this.lane());
  }

  wake(): void {
    for (const wake of this.sleepers) wake();
  }

  /** Stops claiming; documents in flight finish and are recorded before this resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all(this.lanes);
  }

  /**
   * Claims one document due at the clock's now and analyses it; false when none was due.
   * The lanes call it in a loop; tests call it directly to step the queue with their clock.
   */
  async processNext(): Promise<boolean> {
    const claimed = await this.options.batches.claimNext(this.owner, this.options.clock.now(), this.options.leaseMs);
    if (!claimed) return false;
    await this.renewingLease(claimed, () => this.process(claimed));
    return true;
  }

  private async lane(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!(await this.processNext())) await this.sleep();
      } catch (error) {
        // A store that is briefly unreachable must not end the lane; the lease keeps the document
        // safe.
        this.options.log.error("batch worker could not reach the store", {
          error: error instanceof Error ? error.message : String(error),
        });
        await this.sleep();
      }
    }
  }

  private async renewingLease(claimed: ClaimedDocument, work: () => Promise<void>): Promise<void> {
    const { batches, clock, leaseMs } = this.options;
    const renew = () =>
      void batches.renew(claimed.batch.id, claimed.documentIndex, this.owner, clock.now() + leaseMs).catch(() => {
        // A missed renewal is retried at the next tick; a lost lease shows when the outcome is
        // recorded.
      });
    const timer = setInterval(renew, Math.max(1, Math.floor(leaseMs / 3)));
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.sleepers.add(done);
    });
  }

  private async process(claimed: ClaimedDocument): Promise<void> {
    const { batches, clock, log, metrics } = this.options;
    const { batch, documentIndex } = claimed;
    const fields = { batchId: batch.id, documentIndex, attempt: claimed.attempts };
    let outcome: DocumentOutcome;
    try {
      const document = await validateDocument(claimed.content, { validatePdf: this.options.validatePdf });
      const { result, report } = await runVerification({
        analyzer: this.options.analyzer,
        document,
        keyId: batch.keyId,
        sandbox: batch.sandbox,
        clock,
      });
      outcome = { ok: true, result, report };
    } catch (error) {
      const failure = this.classify(error, claimed.attempts);
      if (failure === "retry") {
        const backoffMs = Math.min(60_000, 1000 * 2 ** Math.min(claimed.attempts, 6));
        await batches.release(batch.id, documentIndex, this.owner, clock.now() + backoffMs);
        log.warn("batch document handed back; will retry", {
          ...fields,
          retryInMs: backoffMs,
          code: isAppError(error) ? error.code : "UNEXPECTED",
        });
        return;
      }
      outcome = { ok: false, error: failure };
    }
    const recorded = await batches.recordOutcome({
      batch,
      documentIndex,
      owner: this.owner,
      keyId: batch.keyId,
      outcome,
      now: clock.now(),
    });
    if (!recorded) {
      log.warn("batch document lease lost before its outcome was recorded", fields);
      return;
    }
    if (outcome.ok) {
      metrics.documentAnalysed(outcome.result, outcome.report);
    } else {
      metrics.documentFailed(outcome.error.code);
      if (!batch.sandbox)
        await this.options.usage.release({ keyId: batch.keyId, month: monthOf(batch.createdAt), documents: 1 });
      log.info("batch document could not be analysed", { ...fields, code: outcome.error.code });
    }
    this.options.onRecorded();
  }

  private classify(error: unknown, attempts: number): "retry" | { code: ErrorCode; message: string } {
    if (isAppError(error) && DOCUMENT_ERROR_CODES.has(error.code)) return { code: error.code, message: error.message };
    if (isAppError(error) && (error.retryable || error.code === "SERVICE_UNAVAILABLE")) return "retry";
    if (attempts < MAX_UNEXPECTED_FAILURES) return "retry";
    this.options.log.error("batch document failed repeatedly", {
      error: error instanceof AppError ? error.code : (error as Error)?.name,
    });
    return { code: "UNSUPPORTED_FORMAT", message: "The document could not be analysed" };
  }
}
