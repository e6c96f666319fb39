// Prometheus metrics (prom-client). Labels are bounded sets: route patterns, status codes,
// flags and outcomes; never ids or anything from a document.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { VerificationResult } from "../api/schemas/verification.ts";
import type { AnalysisReport } from "../analysis/report.ts";
import type { Engine, PoolState } from "../store/database.ts";

export interface Metrics {
  registry: Registry;
  requestFinished(route: string, method: string, status: number, seconds: number): void;
  documentAnalysed(result: VerificationResult, report: AnalysisReport): void;
  documentFailed(code: string): void;
  webhookAttempt(outcome: "delivered" | "retry" | "failed"): void;
  /** Gauges read at scrape time. */
  observeQueues(read: { pendingDocuments(): Promise<number>; pendingDeliveries(): Promise<number> }): void;
  /** This process's database connections, read at scrape time. */
  observePool(engine: Engine, read: () => PoolState): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "docverify_" });
  const requests = new Histogram({
    name: "docverify_http_request_duration_seconds",
    help: "HTTP requests by route, method and status.",
    labelNames: ["route", "method", "status"],
    buckets: [0.005, 0.02, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const analysed = new Histogram({
    name: "docverify_analysis_latency_seconds",
    help: "Time to analyse one document, by format and document type.",
    labelNames: ["format", "document_type"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const flags = new Counter({
    name: "docverify_flags_total",
    help: "Flags raised.",
    labelNames: ["flag"],
    registers: [registry],
  });
  const failed = new Counter({
    name: "docverify_documents_failed_total",
    help: "Documents that could not be analysed.",
    labelNames: ["code"],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "docverify_webhook_attempts_total",
    help: "Webhook attempts by outcome.",
    labelNames: ["outcome"],
    registers: [registry],
  });
  return {
    registry,
    requestFinished: (route, method, status, seconds) =>
      requests.observe({ route, method, status: String(status) }, seconds),
    documentAnalysed: (result, report) => {
      analysed.observe({ format: report.format, document_type: result.documentType }, result.latencyMs / 1000);
      for (const flag of result.flags) flags.inc({ flag });
    },
    documentFailed: (code) => failed.inc({ code }),
    webhookAttempt: (outcome) => webhooks.inc({ outcome }),
    observeQueues: (read) => {
      new Gauge({
        name: "docverify_batch_documents_pending",
        help: "Batch documents waiting for analysis.",
        registers: [registry],
        async collect() {
          this.set(await read.pendingDocuments());
        },
      });
      new Gauge({
        name: "docverify_webhook_deliveries_pending",
        help: "Webhook deliveries waiting to be sent or retried.",
        registers: [registry],
        async collect() {
          this.set(await read.pendingDeliveries());
        },
      });
    },
    observePool: (engine, read) => {
      // busy above size means statements are waiting for a connection: the pool is too small
      // for this instance's load, or the database is slow to answer.
      const gauges: [string, string, keyof PoolState][] = [
        ["docverify_database_pool_size", "Connections this process's pool may open.", "size"],
        ["docverify_database_connections_open", "Connections this process has open.", "open"],
        [
          "docverify_database_operations_busy",
          "Statements and transactions under way, those waiting for a connection included.",
          "busy",
        ],
      ];
      for (const [name, help, field] of gauges) {
        new Gauge({
          name,
          help,
          labelNames: ["engine"],
          registers: [registry],
          collect() {
            this.set({ engine }, read()[field]);
          },
        });
      }
    },
  };
}
