// The API's client for the sidecars: sends a document to one of them and maps every failure to
// an AppError. A sidecar that is unavailable is skipped for the next one at once (analysis is
// stateless); when none can answer the error is SERVICE_UNAVAILABLE, retryable, with Retry-After.
import type { IntakeDocument } from "../intake/document.ts";
import type { Logger } from "../log.ts";
import { RoundRobin } from "./balancer.ts";
import { DEFAULT_RETRY_AFTER_SEC, shouldTryAnotherSidecar, sidecarErrorToAppError, unavailable } from "./errors.ts";
import { type SidecarAnalysis, fromResponse } from "./result.ts";
import { type ClientTls, SidecarTarget, channelCredentials } from "./target.ts";

export interface SidecarClientOptions {
  /** host:port of each sidecar; may be empty at first and replaced later (setTargets). */
  targets: string[];
  tls?: ClientTls;
  log: Logger;
  /**
   * Deadline of one document, all attempts together (default 120 s: 10 PDF pages on 2 CPU cores).
   */
  deadlineMs?: number;
  /** How long to wait for a connection to one sidecar before trying the next (default 2 s). */
  connectTimeoutMs?: number;
  /** Health checks of every sidecar, for choosing among them (default every 5 s). */
  healthIntervalMs?: number;
  /** Bytes per stream message (default 64 KiB). */
  chunkBytes?: number;
  /** Retry-After, in seconds, when no sidecar can answer (default 5). */
  retryAfterSec?: number;
}

export interface Readiness {
  ok: boolean;
  detail: string;
}

export interface SidecarClient {
  /**
   * Throws AppError: UNSUPPORTED_FORMAT, FILE_TOO_LARGE, SERVICE_UNAVAILABLE (retryable) or
   * INTERNAL_ERROR.
   */
  analyzeDocument(document: IntakeDocument, options?: { deadlineMs?: number }): Promise<SidecarAnalysis>;
  /** Asks every sidecar's health service now: ready when at least one is SERVING. */
  ready(): Promise<Readiness>;
  setTargets(addresses: string[]): void;
  close(): void;
}

const HEALTH_TIMEOUT_MS = 1_000;
/** How long a sidecar a call found unavailable is passed over. */
const DOWN_MS = 2_000;

export function createSidecarClient(options: SidecarClientOptions): SidecarClient {
  const creds = channelCredentials(options.tls);
  const deadlineMs = options.deadlineMs ?? 120_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const retryAfterSec = options.retryAfterSec ?? DEFAULT_RETRY_AFTER_SEC;
  const balancer = new RoundRobin();
  let targets: SidecarTarget[] = [];
  let closed = false;

  const setTargets = (addresses: string[]) => {
    const kept = targets.filter((target) => addresses.includes(target.address));
    for (const target of targets) if (!kept.includes(target)) target.close();
    const known = new Set(kept.map((target) => target.address));
    targets = [
      ...kept,
      ...addresses
        .filter((address) => !known.has(address))
        .map((address) => new SidecarTarget(address, creds, options.tls)),
    ];
  };
  setTargets(options.targets);

  // Health checks keep the balancer's view current; a loop, not an interval, so checks never
  // overlap.
  let healthTimer: ReturnType<typeof setTimeout> | undefined;
  const checkAll = () => Promise.all(targets.map((target) => target.check(HEALTH_TIMEOUT_MS)));
  const healthLoop = async () => {
    await checkAll();
    if (!closed) healthTimer = setTimeout(healthLoop, options.healthIntervalMs ?? 5_000);
    healthTimer?.unref?.();
  };
  void healthLoop();

  const analyzeDocument: SidecarClient["analyzeDocument"] = async (document, callOptions) => {
    const deadline = Date.now() + (callOptions?.deadlineMs ?? deadlineMs);
    const tried = new Set<SidecarTarget>();
    let lastError: unknown;
    for (let target = balancer.pick(targets, tried); target && !closed; target = balancer.pick(targets, tried)) {
      tried.add(target);
      try {
        await target.waitConnected(Math.min(deadline, Date.now() + connectTimeoutMs));
        const response = await target.analyze(document, deadline, chunkBytes);
        return fromResponse(response, target.address);
      } catch (error) {
        lastError = error;
        if (!shouldTryAnotherSidecar(error) || Date.now() >= deadline)
          throw sidecarErrorToAppError(error, retryAfterSec);
        target.downUntil = Date.now() + DOWN_MS;
        options.log.warn("sidecar unavailable, trying another", { sidecar: target.address });
      }
    }
    throw unavailable(
      targets.length === 0 ? "the analysis service is starting" : "no analysis sidecar could answer",
      retryAfterSec,
      lastError,
    );
  };

  const ready = async (): Promise<Readiness> => {
    if (targets.length === 0) return { ok: false, detail: "no sidecar address yet" };
    const answers = await checkAll();
    const serving = targets.filter((_, i) => answers[i]).map((target) => target.address);
    const down = targets.filter((_, i) => !answers[i]).map((target) => target.address);
    const detail =
      `${serving.length}/${targets.length} sidecars serving` +
      (down.length ? ` (not serving: ${down.join(", ")})` : "");
    return { ok: serving.length > 0, detail };
  };

  const close = () => {
    closed = true;
    clearTimeout(healthTimer);
    for (const target of targets) target.close();
    targets = [];
  };

  return { analyzeDocument, ready, setTargets, close };
}
