// Timer-driven outbox dispatcher: claims due deliveries with a lease, sends them, and
// records the outcome. A retry is scheduled its delay after the attempt that failed; after
// the last delay the delivery is marked failed. Nothing is held in memory that a crash
// could lose: the outbox row is the truth.
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { OutboxStore, Delivery } from "../store/outbox.ts";
import { deliveryHeaders } from "./sign.ts";
import type { WebhookSender } from "./send.ts";

export interface DispatcherOptions {
  outbox: OutboxStore;
  send: WebhookSender;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  retryScheduleMs: number[];
  pollMs: number;
  timeoutMs: number;
  /**
   * How long past an attempt's timeout a claim lasts: how soon a dead dispatcher's deliveries are
   * taken up.
   */
  leaseMs: number;
  concurrency?: number;
}

export class WebhookDispatcher {
  private readonly owner = `dispatch-${randomUUID()}`;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: DispatcherOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Finishes the attempts in flight, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  nudge(): void {
    this.wake?.();
  }

  /**
   * Claims the deliveries due at the clock's now (up to the concurrency) and attempts them;
   * returns how many. The loop calls it; tests call it directly to step with their clock.
   */
  async dispatchDue(): Promise<number> {
    const { outbox, clock, timeoutMs, leaseMs } = this.options;
    // The lease outlives one attempt's timeout, so a slow receiver is never sent twice at once.
    const due = await outbox.claimDue(this.owner, clock.now(), timeoutMs + leaseMs, this.options.concurrency ?? 8);
    await Promise.all(due.map((delivery) => this.attempt(delivery)));
    return due.length;
  }

  private async run(): Promise<void> {
    const { pollMs } = this.options;
    while (!this.stopping) {
      try {
        if ((await this.dispatchDue()) > 0) continue;
      } catch (error) {
        // A store that is briefly unreachable must not end the loop; leases keep the deliveries
        // safe.
        this.options.log.error("webhook dispatcher could not reach the store", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const { outbox, clock, log, metrics, retryScheduleMs } = this.options;
    const startedAt = clock.now();
    const headers = deliveryHeaders({
      secret: delivery.callbackSecret,
      deliveryId: delivery.deliveryId,
      body: delivery.body,
      nowMs: startedAt,
    });
    const started = performance.now();
    const outcome = await this.options.send({ url: delivery.callbackUrl, body: delivery.body, headers });
    const durationMs = performance.now() - started;
    const redelivery = delivery.redeliverAt !== null;
    const fields = {
      deliveryId: delivery.deliveryId,
      batchId: delivery.batchId,
      documentIndex: delivery.documentIndex,
      attempt: delivery.attempts,
      redelivery,
    };
    if (outcome.ok) {
      const recorded = await outbox.markDelivered(
        delivery,
        this.owner,
        { startedAt, durationMs, status: outcome.status, error: null },
        clock.now(),
      );
      metrics.webhookAttempt("delivered");
      log.info(recorded ? "webhook delivered" : "webhook delivered but its lease was lost; not recorded", {
        ...fields,
        status: outcome.status,
      });
      return;
    }
    // attempts counts this one: attempt 1 failing schedules retry 1, and so on. A redelivery
    // is outside the schedule and schedules nothing.
    const delay = redelivery ? undefined : retryScheduleMs[delivery.attempts - 1];
    const next = delay === undefined ? null : clock.now() + delay;
    const attempt = { startedAt, durationMs, status: outcome.status, error: outcome.error };
    const recorded = await outbox.markFailed(
      delivery,
      this.owner,
      attempt,
      { error: outcome.error },
      next,
      clock.now(),
    );
    metrics.webhookAttempt(next === null ? "failed" : "retry");
    const message = redelivery
      ? "webhook redelivery failed"
      : next === null
        ? "webhook delivery failed for good"
        : "webhook attempt failed; will retry";
    log.warn(recorded ? message : `${message} (lease lost; not recorded)`, {
      ...fields,
      status: outcome.status,
      error: outcome.error,
      ...(next === null ? {} : { retryInMs: delay }),
    });
  }
}
