import type { Config } from "../config.ts";
import type { Store } from "../store/index.ts";
import type { AnalysisService } from "../analysis/create-analyzer.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { RateLimiter } from "../limits/rate-limiter.ts";
import type { VerifyAdmission } from "../limits/verify-admission.ts";
import type { MemoryBudget } from "../limits/memory-budget.ts";

export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

/** What the HTTP layer needs; built by the composition root, replaceable in tests. */
export interface AppDeps {
  config: Config;
  store: Store;
  analyzer: AnalysisService;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /**
   * Fetches a documentUrl through the guarded client under the address policy
   * (src/intake/fetch-url.ts).
   */
  fetchDocument(url: string): Promise<Uint8Array>;
  /** Turns for synchronous verifies: a bounded queue, then 503. */
  verifyAdmission: VerifyAdmission;
  /**
   * The process's memory budget, shared with the analyser: request bodies hold their share of it
   * while in flight.
   */
  memory: MemoryBudget;
  readiness(): Promise<Readiness>;
  /** Tells the batch worker new documents are waiting, so it need not wait for its timer. */
  wakeBatchWorker(): void;
  /** Tells the webhook dispatcher a redelivery is waiting, so it need not wait for its timer. */
  wakeDispatcher(): void;
  /** False once shutdown began: new work is refused with 503. */
  accepting(): boolean;
}
