// `docverify serve`: the composition root of the service.
import type { Config } from "../config.ts";
import { openStore } from "../store/index.ts";
import { lockDataDir } from "../store/data-dir-lock.ts";
import { createApp } from "../api/app.ts";
import { SERVER_BODY_CEILING } from "../api/body-limits.ts";
import { configureSharpForService } from "../runtime/sharp-settings.ts";
import { createLogger } from "../log.ts";
import { createMetrics } from "../metrics/registry.ts";
import { createVerifyAdmission } from "../limits/verify-admission.ts";
import { systemClock, type Clock } from "../clock.ts";
import { BatchWorker } from "../batches/worker.ts";
import { WebhookDispatcher } from "../webhooks/dispatcher.ts";
import { createWebhookSender } from "../webhooks/send.ts";
import { fetchDocumentUrl } from "../intake/fetch-url.ts";
import { createAnalyzer } from "../analysis/create-analyzer.ts";
import { createApiMemoryBudget } from "../limits/api-memory-budget.ts";
import type { Readiness } from "../api/deps.ts";
import { ConfigError } from "../config.ts";
import type { Store } from "../store/index.ts";
import type { Logger } from "../log.ts";

const RETENTION_SWEEP_MS = 60 * 60_000;

/**
 * Refuses to start when a stored callback secret was sealed under a key we no longer hold
 * (its webhooks could never be signed), then seals what an older release left in plaintext
 * and re-seals what an older key sealed.
 */
async function openCallbackSecrets(store: Store, log: Logger): Promise<void> {
  const keyring = store.keyring();
  const unknown = await store.callbackSecrets.unknownKeyIds(keyring);
  if (unknown.length > 0) {
    const where = store.keySource() === "environment" ? "DOCVERIFY_SECRET_KEY" : "the data directory's secret.key";
    throw new ConfigError(
      "DOCVERIFY_SECRET_KEY",
      `callback secrets are sealed under key ${unknown.join(", ")}, which ${where} does not hold`,
    );
  }
  const sealed = await store.callbackSecrets.sealAll(keyring);
  if (sealed > 0)
    log.info("callback secrets sealed under the current key", { batches: sealed, keyId: keyring.currentId });
}

export interface RunningService {
  port: number;
  stop(): Promise<void>;
}

/** What a test may replace in the wiring; `serve` passes only its clock. */
export interface ServiceOptions {
  clock?: Clock;
  /** Builds the analysis; default the sidecars and the analysis workers (createAnalyzer). */
  createAnalyzer?: typeof createAnalyzer;
  /** Where log lines go; default stderr. */
  writeLog?: Parameters<typeof createLogger>[2];
  /** Extra CA (PEM) the documentUrl fetcher and the webhook sender trust, beside the system's. */
  ca?: string;
}

/** The service assembled but not yet serving: no port, no worker or dispatcher running. */
export interface ComposedService {
  app: ReturnType<typeof createApp>;
  store: Store;
  log: Logger;
  /** Starts the batch worker, the webhook dispatcher and the retention sweep. */
  start(): Promise<void>;
  /**
   * Stops intake, finishes the work in flight, closes the analyser and the store, and unlocks
   * the data directory.
   */
  stop(): Promise<void>;
}

export async function startService(config: Config, clock: Clock = systemClock): Promise<RunningService> {
  const service = await composeService(config, { clock });
  const { app, store, log } = service;
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: SERVER_BODY_CEILING });
  const port = app.server!.port!;
  await service.start();
  // The database URL may carry a password: only the engine is logged.
  log.info("docverify listening", {
    port,
    host: config.host,
    store: store.engine,
    ...(store.engine === "sqlite" ? { dataDir: config.dataDir } : {}),
  });
  return { port, stop: service.stop };
}

/**
 * Everything `serve` builds, in the order it needs: the data directory's lock, the store and
 * its migrations, the analyser, the batch worker and the webhook dispatcher, and the HTTP app
 * over them. Split from startService so a test can drive the real wiring through
 * `app.handle` without a port or a child process.
 */
export async function composeService(config: Config, options: ServiceOptions = {}): Promise<ComposedService> {
  const clock = options.clock ?? systemClock;
  // The test CA, where one is given, for both clients that reach caller-supplied URLs.
  const trusted = options.ca === undefined ? {} : { ca: options.ca };
  const log = createLogger(config.logLevel, { component: "serve" }, options.writeLog);
  if (config.databaseUrl !== "" && config.secretKeys.length === 0) {
    // A key file in one machine's data directory would leave the other instances unable to sign
    // the webhooks of batches this one accepted.
    throw new ConfigError(
      "DOCVERIFY_SECRET_KEY",
      "is required with DOCVERIFY_DATABASE_URL: every instance must hold the same keys",
    );
  }
  configureSharpForService();
  const unlock = lockDataDir(config.dataDir, config.databaseUrl);
  const store = await openStore(config);
  // Whichever instance took the migration lock first applied them; the others found them done.
  if (store.schema.found !== store.schema.current)
    log.info("database schema migrated", { store: store.engine, from: store.schema.found, to: store.schema.current });
  await openCallbackSecrets(store, log);
  const metrics = createMetrics();
  // One budget for the process: documents being analysed and request bodies being read or held.
  const memory = createApiMemoryBudget(config.memoryLimitBytes);
  const analyzer = await (options.createAnalyzer ?? createAnalyzer)(config, log, {
    fingerprints: store.fingerprints,
    now: () => clock.now(),
    memory,
  });
  let accepting = true;

  const dispatcher = new WebhookDispatcher({
    outbox: store.outbox,
    send: createWebhookSender({
      allowPrivate: config.allowPrivateUrls,
      timeoutMs: config.webhookTimeoutMs,
      ...trusted,
    }),
    clock,
    log: log.child({ component: "webhooks" }),
    metrics,
    retryScheduleMs: config.webhookRetryScheduleMs,
    pollMs: config.outboxPollMs,
    timeoutMs: config.webhookTimeoutMs,
    leaseMs: config.leaseMs,
  });
  const worker = new BatchWorker({
    batches: store.batches,
    usage: store.usage,
    analyzer,
    validatePdf: (bytes) => analyzer.validatePdf(bytes),
    clock,
    log: log.child({ component: "batches" }),
    metrics,
    concurrency: config.batchConcurrency,
    pollMs: config.outboxPollMs,
    leaseMs: config.leaseMs,
    onRecorded: () => dispatcher.nudge(),
  });
  metrics.observeQueues({
    pendingDocuments: () => store.batches.pendingDocuments(),
    pendingDeliveries: async () => (await store.outbox.counts()).pending,
  });
  metrics.observePool(store.engine, () => store.pool());

  const readiness = async (): Promise<Readiness> => {
    const [storeState, analyzerState] = await Promise.all([store.ping(), analyzer.ready()]);
    return {
      ready: accepting && storeState.ok && analyzerState.ok,
      checks: { store: storeState, analyzer: analyzerState, accepting: { ok: accepting } },
    };
  };

  const app = createApp({
    config,
    store,
    analyzer,
    clock,
    log,
    metrics,
    rateLimiter: store.rateLimits,
    fetchDocument: (url) => fetchDocumentUrl(url, { allowPrivate: config.allowPrivateUrls, ...trusted }),
    verifyAdmission: createVerifyAdmission({
      concurrent: config.verifyConcurrency ?? config.sidecarConcurrency * Math.max(1, config.sidecar.length),
      queued: config.verifyQueue,
      maxWaitMs: config.verifyQueueWaitMs,
      registry: metrics.registry,
    }),
    memory,
    readiness,
    wakeBatchWorker: () => worker.wake(),
    wakeDispatcher: () => dispatcher.nudge(),
    accepting: () => accepting,
  });

  const sweep = async () => {
    const cutoffMs = clock.now() - config.retentionDays * 86_400_000;
    try {
      await store.idempotency.deleteExpired(clock.now());
      await store.audit.deleteRefusalsOlderThan(new Date(cutoffMs).toISOString());
      const removed = await store.sweepExpired(cutoffMs);
      if (Object.values(removed).some((count) => count > 0))
        log.info("retention: removed expired results and batches", { ...removed });
    } catch (error) {
      log.error("retention sweep failed; it runs again at the next interval", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const start = async () => {
    worker.start();
    dispatcher.start();
    // One serve process owns a SQLite data directory: an unfinished idempotent request left in
    // the store died with the process before this one, and its key is free again. A shared
    // store's unfinished requests may belong to live instances; their locks run out instead.
    if (store.engine === "sqlite") await store.idempotency.abandonAllInProgress();
    await sweep();
    sweeper = setInterval(sweep, RETENTION_SWEEP_MS);
  };

  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      accepting = false;
      clearInterval(sweeper);
      log.info("shutting down: intake stopped, finishing work in flight");
      await app.server?.stop(false);
      await worker.stop();
      await dispatcher.stop();
      await analyzer.close();
      await store.close();
      unlock();
      log.info("stopped");
    })());
  return { app, store, log, start, stop };
}
