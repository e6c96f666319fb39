// The analysis the service runs, built once for serve, batches and `docverify analyze`: the
// full analysis over the sidecars (embedded child or remote), and its readiness.
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { createSidecarService, type SidecarService } from "../sidecar-client/index.ts";
import type { FingerprintStore } from "../store/fingerprints.ts";
import type { Analyzer } from "./analyzer.ts";
import { createFullAnalyzer } from "./full-analyzer.ts";
import { DEFAULT_LIMITS } from "./detector.ts";
import { createLocalAnalysisPool } from "./worker/local-analysis-pool.ts";
import { analysisWorkerHeapBytes, estimateAnalysisBytes } from "./memory-estimate.ts";
import type { MemoryBudget } from "../limits/memory-budget.ts";
import { createApiMemoryBudget } from "../limits/api-memory-budget.ts";
import { memoryGivenBackWhenIdle } from "../runtime/give-back-memory.ts";

export interface AnalysisService extends Analyzer {
  /** Intake's PDF check, in an analysis worker (see validateDocument's options). */
  validatePdf(bytes: Uint8Array): Promise<void>;
  ready(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

export interface AnalyzerDeps {
  /** Fingerprints per API key, for duplicate_submission; absent for `docverify analyze`. */
  fingerprints?: Pick<FingerprintStore, "findSimilar" | "record">;
  now?: () => number;
  /** The embedded sidecar's command up to its flags (tests); default this program's `sidecar`. */
  embeddedCommand?: string[];
  /**
   * The process's memory budget, shared with the HTTP layer's request bodies; default one of its
   * own.
   */
  memory?: MemoryBudget;
}

/**
 * How long a document waits for an embedded sidecar that has not served yet: the time it
 * may take to start (the operating contract: ready within 120 s). Once it has served, a sidecar
 * that cannot answer fails the call at once (503 with Retry-After; batch documents wait).
 */
const EMBEDDED_START_WAIT_MS = 120_000;
const START_POLL_MS = 250;

export async function createAnalyzer(config: Config, log: Logger, deps: AnalyzerDeps = {}): Promise<AnalysisService> {
  const sidecar = await createSidecarService(config, log, {
    tlsCa: config.sidecarTlsCa,
    tlsCert: config.sidecarTlsCert,
    tlsKey: config.sidecarTlsKey,
    tlsServerName: config.sidecarTlsServerName,
    deadlineMs: config.sidecarDeadlineMs,
    embeddedCommand: deps.embeddedCommand,
    embeddedFlags: embeddedFlags(config),
  });
  let closed = false;
  const started = config.sidecar.length > 0 ? Promise.resolve() : waitUntilServing(sidecar, log, () => closed);
  const idle = memoryGivenBackWhenIdle();
  // The structure and metadata inspection runs in worker threads, off this event loop; a
  // little past its own time budget the worker is ended.
  const local = createLocalAnalysisPool({
    workers: config.analysisWorkers,
    timeLimitMs: DEFAULT_LIMITS.timeBudgetMs + 10_000,
    mupdfHeapBytes: analysisWorkerHeapBytes(config.memoryLimitBytes, config.analysisWorkers),
    // What the ended worker held is freed into the allocators; the collection and trim return it.
    onIdleWorkerEnded: () => idle.freed(),
  });
  const full = createFullAnalyzer({
    sidecar,
    inspect: (document) => local.inspect(document),
    fingerprints: deps.fingerprints,
    now: deps.now,
  });
  const memory = deps.memory ?? createApiMemoryBudget(config.memoryLimitBytes);
  return {
    analyze: async (document, context) => {
      await started;
      // The request's body (context.memoryHeld) stays held beside the analysis; it is set
      // aside while this waits, so requests holding bodies never wait on one another for good.
      const release = await memory.reserve(
        await estimateAnalysisBytes(document),
        document.format === "pdf" ? "The PDF" : "The image",
        undefined,
        context.memoryHeld,
      );
      const leave = idle.enter();
      try {
        return await full.analyze(document, context);
      } finally {
        release();
        leave();
      }
    },
    validatePdf: (bytes) => local.validatePdf(bytes),
    ready: () => sidecar.ready(),
    close: async () => {
      closed = true;
      await Promise.all([local.close(), sidecar.close()]);
    },
  };
}

/** Settings of this process that the embedded child must share. */
function embeddedFlags(config: Config): string[] {
  return [
    "--log-level",
    config.logLevel,
    "--sidecar-concurrency",
    String(config.sidecarConcurrency),
    "--memory-limit",
    String(config.memoryLimitBytes),
    ...(config.sidecarThreads ? ["--sidecar-threads", String(config.sidecarThreads)] : []),
    ...(config.sidecarMaxBatch ? ["--sidecar-max-batch", String(config.sidecarMaxBatch)] : []),
    ...(config.sidecarCudaLibDir ? ["--sidecar-cuda-lib-dir", config.sidecarCudaLibDir] : []),
  ];
}

async function waitUntilServing(sidecar: SidecarService, log: Logger, closed: () => boolean): Promise<void> {
  const deadline = Date.now() + EMBEDDED_START_WAIT_MS;
  while (Date.now() < deadline && !closed()) {
    if ((await sidecar.ready()).ok) return;
    await Bun.sleep(START_POLL_MS);
  }
  if (!closed()) log.warn("embedded sidecar did not start in time; documents are refused until it serves");
}
