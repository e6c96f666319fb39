// `docverify serve`: the composition root of the service.
import type { Config } from "../config";
import { createStore } from "../store";
import { lockDataDir } from "../store/data-dir-lock";
import { sweepExpired } from "../store/retention";
import { createApp } from "../api/app";
import { createLogger } from "../log";
import { createMetrics } from "../metrics/registry";
import { RateLimiter } from "../limits/rate-limiter";
import { systemClock, type Clock } from "../clock";
import { BatchWorker } from "../batches/worker";
import { WebhookDispatcher } from "../webhooks/dispatcher";
import { createWebhookSender } from "../webhooks/send";
import { createAnalyzer } from "../analysis/create-analyzer";
import type { Readiness } from "../api/deps";

const RETENTION_SWEEP_MS = 60 * 60_000;

export interface RunningService {
  port: number;
  stop(): Promise<void>;
}

export async function startService(config: Config, clock: Clock = systemClock): Promise<RunningService> {
  const log = createLogger(config.logLevel, { component: "serve" });
  const unlock = lockDataDir(config.dataDir);
  const store = createStore(config.dataDir);
  const metrics = createMetrics();
  const analyzer = await createAnalyzer(config, log, { fingerprints: store.fingerprints, now: () => clock.now() });
  let accepting = true;

  const dispatcher = new WebhookDispatcher({
    outbox: store.outbox,
    send: createWebhookSender({ allowPrivate: config.allowPrivateUrls, timeoutMs: config.webhookTimeoutMs }),
    clock,
    log: log.child({ component: "webhooks" }),
    metrics,
    retryScheduleMs: config.webhookRetryScheduleMs,
    pollMs: config.outboxPollMs,
    timeoutMs: config.webhookTimeoutMs,
  });
  const worker = new BatchWorker({
    batches: store.batches,
    usage: store.usage,
    analyzer,
    clock,
    log: log.child({ component: "batches" }),
    metrics,
    concurrency: config.batchConcurrency,
    pollMs: config.outboxPollMs,
    onRecorded: () => dispatcher.nudge(),
  });
  metrics.observeQueues(() => ({ pendingDocuments: store.batches.pendingDocuments(), pendingDeliveries: store.outbox.counts().pending }));

  const readiness = async (): Promise<Readiness> => {
    const storeOk = store.ping();
    const analyzerState = await analyzer.ready();
    return {
      ready: accepting && storeOk && analyzerState.ok,
      checks: { store: { ok: storeOk }, analyzer: analyzerState, accepting: { ok: accepting } },
    };
  };

  const app = createApp({
    config,
    store,
    analyzer,
    clock,
    log,
    metrics,
    rateLimiter: new RateLimiter(),
    readiness,
    wakeBatchWorker: () => worker.wake(),
    wakeDispatcher: () => dispatcher.nudge(),
    accepting: () => accepting,
  });
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 16 * 1024 * 1024 });
  const port = app.server!.port!;

  worker.start();
  dispatcher.start();
  // One serve process owns the data directory: an unfinished idempotent request left in the
  // store died with the process before this one, and its key is free again.
  store.idempotency.abandonAllInProgress();
  const sweep = () => {
    store.idempotency.deleteExpired(clock.now());
    const removed = sweepExpired(store, clock.now() - config.retentionDays * 86_400_000);
    if (Object.values(removed).some((count) => count > 0)) log.info("retention: removed expired results and batches", { ...removed });
  };
  sweep();
  const sweeper = setInterval(sweep, RETENTION_SWEEP_MS);

  log.info("docverify listening", { port, host: config.host, dataDir: config.dataDir });

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
      store.close();
      unlock();
      log.info("stopped");
    })());
  return { port, stop };
}
