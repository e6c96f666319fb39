// The batch worker and the webhook dispatcher on an in-process app's store and clock, as
// `serve` wires them (src/cli/serve.ts), but never started: a test steps them with
// processNext() / dispatchDue() after moving the clock, so retry delays and leases are
// crossed without sleeping.
import { BatchWorker } from "../../src/batches/worker.ts";
import type { Analyzer } from "../../src/analysis/analyzer.ts";
import { WebhookDispatcher } from "../../src/webhooks/dispatcher.ts";
import { createWebhookSender } from "../../src/webhooks/send.ts";
import type { InProcessApp } from "./in-process-app.ts";

export function workerOf(
  service: InProcessApp,
  options: { analyzer?: Analyzer; leaseMs?: number; pollMs?: number } = {},
): BatchWorker {
  const { deps } = service;
  return new BatchWorker({
    batches: deps.store.batches,
    usage: deps.store.usage,
    analyzer: options.analyzer ?? deps.analyzer,
    validatePdf: (bytes) => deps.analyzer.validatePdf(bytes),
    clock: deps.clock,
    log: deps.log.child({ component: "batches" }),
    metrics: deps.metrics,
    concurrency: 1,
    pollMs: options.pollMs ?? deps.config.outboxPollMs,
    leaseMs: options.leaseMs ?? deps.config.leaseMs,
    onRecorded: () => {},
  });
}

/** `ca`: the PEM of the test CA the loopback receiver's certificate chains to. */
export function dispatcherOf(
  service: InProcessApp,
  ca: string,
  options: { pollMs?: number; timeoutMs?: number } = {},
): WebhookDispatcher {
  const { deps } = service;
  const timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
  return new WebhookDispatcher({
    outbox: deps.store.outbox,
    send: createWebhookSender({ allowPrivate: true, timeoutMs, ca }),
    clock: deps.clock,
    log: deps.log.child({ component: "webhooks" }),
    metrics: deps.metrics,
    retryScheduleMs: deps.config.webhookRetryScheduleMs,
    pollMs: options.pollMs ?? deps.config.outboxPollMs,
    timeoutMs,
    leaseMs: deps.config.leaseMs,
  });
}

/** Processes every batch document due now; returns how many. */
export async function drainWorker(worker: BatchWorker): Promise<number> {
  let processed = 0;
  while (await worker.processNext()) processed++;
  return processed;
}

/** Analyses what is queued and sends what is due, at the clock's now. */
export async function stepWorkers(worker: BatchWorker, dispatcher: WebhookDispatcher): Promise<void> {
  await drainWorker(worker);
  while ((await dispatcher.dispatchDue()) > 0);
}

/**
 * Steps at the start, then after each delay of the retry schedule, moving the clock across
 * it: every scheduled attempt a delivery will get.
 */
export async function stepRetrySchedule(
  service: InProcessApp,
  worker: BatchWorker,
  dispatcher: WebhookDispatcher,
): Promise<void> {
  await stepWorkers(worker, dispatcher);
  for (const delay of service.deps.config.webhookRetryScheduleMs) {
    service.clock.advance(delay);
    await stepWorkers(worker, dispatcher);
  }
}
