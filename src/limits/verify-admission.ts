// Back-pressure for synchronous verifies: a few documents are analysed at once (what the
// analysers can take), a bounded number wait their turn, and past either bound the answer is
// 503 SERVICE_UNAVAILABLE with Retry-After at once, so a burst never grows an unbounded queue
// nor turns into client timeouts. Queue length and waits are exported to /metrics.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { AppError } from "../errors.ts";
import { createTurns } from "./turns.ts";

export interface VerifyAdmissionOptions {
  /** Documents analysed at once. */
  concurrent: number;
  /** Documents that may wait for a turn; more are refused at once. */
  queued: number;
  /** Longest a document may wait for its turn before it is refused. */
  maxWaitMs: number;
  registry?: Registry;
}

export interface VerifyAdmission {
  /** Resolves with the function that ends the turn, or throws SERVICE_UNAVAILABLE. */
  enter(): Promise<() => void>;
  /** Documents waiting now. */
  waiting(): number;
  /** Documents being analysed now. */
  running(): number;
  /**
   * Throws what `enter` would answer when neither a turn nor a place in the queue is free: a
   * request can then be refused before its body is read, so a flood costs no body buffers.
   */
  refuseIfFull(): void;
}

export function createVerifyAdmission(options: VerifyAdmissionOptions): VerifyAdmission {
  const registers = options.registry ? [options.registry] : [];
  const queueLength = new Gauge({
    name: "docverify_verify_queue_length",
    help: "Synchronous verifies waiting for an analysis slot.",
    registers,
  });
  const inFlight = new Gauge({
    name: "docverify_verify_in_flight",
    help: "Synchronous verifies being analysed.",
    registers,
  });
  const waits = new Histogram({
    name: "docverify_verify_queue_wait_seconds",
    help: "Time synchronous verifies waited for an analysis slot (admitted ones).",
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const refused = new Counter({
    name: "docverify_verify_queue_refused_total",
    help: "Synchronous verifies refused with 503 by back-pressure.",
    labelNames: ["reason"],
    registers,
  });

  // A client told to come back should find room: about the time the queue takes to move.
  const retryAfterSec = Math.max(1, Math.ceil(options.maxWaitMs / 1000));
  const queueFull = () => {
    refused.inc({ reason: "queue_full" });
    return new AppError(
      "SERVICE_UNAVAILABLE",
      "The service is at capacity: too many documents are waiting for analysis",
      { retryAfterSec, retryable: true },
    );
  };
  const turns = createTurns({
    concurrent: options.concurrent,
    queued: options.queued,
    full: queueFull,
    changed: () => {
      queueLength.set(turns.waiting());
      inFlight.set(turns.running());
    },
  });

  return {
    refuseIfFull() {
      if (turns.isFull()) throw queueFull();
    },
    async enter() {
      const started = performance.now();
      const end = await turns.enter((abandon) => {
        const timer = setTimeout(() => {
          refused.inc({ reason: "wait_limit" });
          abandon(
            new AppError(
              "SERVICE_UNAVAILABLE",
              `The service is at capacity: the document waited ${options.maxWaitMs} ms without a free analysis slot`,
              { retryAfterSec, retryable: true },
            ),
          );
        }, options.maxWaitMs);
        return () => clearTimeout(timer);
      });
      waits.observe((performance.now() - started) / 1000);
      return end;
    },
    waiting: () => turns.waiting(),
    running: () => turns.running(),
  };
}
