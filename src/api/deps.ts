import type { Config } from "../config";
import type { Store } from "../store";
import type { AnalysisService } from "../analysis/create-analyzer";
import type { Clock } from "../clock";
import type { Logger } from "../log";
import type { Metrics } from "../metrics/registry";
import type { RateLimiter } from "../limits/rate-limiter";
import type { VerifyAdmission } from "../limits/verify-admission";

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
  /** Fetches a documentUrl through the guarded client under the address policy (src/intake/fetch-url.ts). */
  fetchDocument(url: string): Promise<Uint8Array>;
  /** Turns for synchronous verifies: a bounded queue, then 503. */
  verifyAdmission: VerifyAdmission;
  readiness(): Promise<Readiness>;
  /** Tells the batch worker new documents are waiting, so it need not wait for its timer. */
  wakeBatchWorker(): void;
  /** Tells the webhook dispatcher a redelivery is waiting, so it need not wait for its timer. */
  wakeDispatcher(): void;
  /** False once shutdown began: new work is refused with 503. */
  accepting(): boolean;
}
