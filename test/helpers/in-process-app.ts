// The HTTP layer built in-process the way `serve` builds it (src/cli/serve.ts), for route
// tests through `app.handle(new Request(...))`: a real SQLite store in a fresh data directory,
// a manual clock, and the real in-process detectors. No port, no child process, no sidecar.
import { createApp } from "../../src/api/app.ts";
import { assertDecodablePdf } from "../../src/intake/validate-pdf.ts";
import { fetchDocumentUrl } from "../../src/intake/fetch-url.ts";
import type { AppDeps } from "../../src/api/deps.ts";
import type { AnalysisService } from "../../src/analysis/create-analyzer.ts";
import { createApiMemoryBudget } from "../../src/limits/api-memory-budget.ts";
import type { Analyzer } from "../../src/analysis/analyzer.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { createMetrics } from "../../src/metrics/registry.ts";
import { createVerifyAdmission } from "../../src/limits/verify-admission.ts";
import { generateKey, hashKey, newKeyId, type KeyMode } from "../../src/keys/secret.ts";
import type { Plan } from "../../src/store/keys.ts";
import type { Store } from "../../src/store/index.ts";
import { createLocalAnalyzer } from "./local-analyzer.ts";
import { manualClock, type ManualClock } from "./manual-clock.ts";
import { openTestStore, type TestStore } from "./store.ts";

type App = ReturnType<typeof createApp>;

interface KeyOptions {
  mode?: KeyMode;
  plan?: Plan;
  trialQuota?: number;
  rateLimitPerSecond?: number;
  monthlyCap?: number;
}

export interface InProcessApp {
  app: App;
  deps: AppDeps;
  clock: ManualClock;
  testStore: TestStore;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
  /** Documents the analyser was handed, in order. */
  analysed: number;
  /** What wakeBatchWorker / wakeDispatcher were called, as `serve` would pass them on. */
  wakes: { batchWorker: number; dispatcher: number };
  /**
   * A key as `docverify keys create` makes one (src/cli/keys.ts), written straight to the store.
   */
  createKey(options?: KeyOptions): Promise<string>;
  /** `app.handle` on a path of a fake origin, with the key as a bearer token when given. */
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export interface InProcessAppOptions {
  env?: Record<string, string>;
  /**
   * Replaces the analyser. Default: the real structure and metadata detectors, which run in
   * this thread in milliseconds; OCR and pixel forensics need the sidecar's models and stay
   * in the integration layer (test/integration/analysis, test/integration/sidecar).
   */
  analyzer?: Analyzer;
  /**
   * Extra CA (PEM) the documentUrl fetcher trusts: a loopback document server's
   * (test/helpers/tls.ts).
   */
  ca?: string;
  /** Replaces parts of what `serve` would pass (readiness, accepting, verifyAdmission…). */
  overrides?: Partial<AppDeps>;
  /** Where the manual clock starts (default: see manual-clock.ts). */
  clockStartMs?: number;
}

/**
 * The analysis service `serve` builds (createAnalyzer), running `inner` in this thread and
 * always ready.
 */
export function inThreadAnalysisService(inner: Analyzer): AnalysisService {
  return {
    analyze: (document, context) => inner.analyze(document, context),
    // In this thread: `serve` sends it to its analysis workers only to bound mupdf's memory.
    validatePdf: async (bytes) => assertDecodablePdf(bytes),
    ready: async () => ({ ok: true }),
    close: async () => {},
  };
}

/**
 * A key as `docverify keys create` makes one (src/cli/keys.ts), written straight to the
 * store; returns its secret.
 */
export async function insertKey(store: Store, nowMs: number, key: KeyOptions = {}): Promise<string> {
  const mode = key.mode ?? "test";
  const plan: Plan = key.plan ?? (mode === "test" ? "sandbox" : key.trialQuota !== undefined ? "trial" : "paid");
  const secret = generateKey(mode);
  await store.keys.insert(
    {
      id: newKeyId(),
      mode,
      plan,
      trialQuota: plan === "trial" ? (key.trialQuota ?? 100) : null,
      rateLimitPerSecond: key.rateLimitPerSecond ?? null,
      monthlyCap: key.monthlyCap ?? null,
      createdAt: new Date(nowMs).toISOString(),
    },
    hashKey(secret),
  );
  return secret;
}

export async function startInProcessApp(options: InProcessAppOptions = {}): Promise<InProcessApp> {
  const testStore = await openTestStore("sqlite");
  const clock = manualClock(options.clockStartMs);
  const config: Config = loadConfig({ DOCVERIFY_DATA_DIR: testStore.dataDir, ...options.env });
  const logs: Record<string, unknown>[] = [];
  const log = createLogger("debug", {}, (line) => logs.push(JSON.parse(line)) > 0);
  const metrics = createMetrics();
  const inner = options.analyzer ?? createLocalAnalyzer({ now: clock.now });
  const wakes = { batchWorker: 0, dispatcher: 0 };
  const state = { analysed: 0 };
  const analyzer = inThreadAnalysisService({
    analyze: (document, context) => {
      state.analysed++;
      return inner.analyze(document, context);
    },
  });
  const deps: AppDeps = {
    config,
    store: testStore.store,
    analyzer,
    clock,
    log,
    metrics,
    rateLimiter: testStore.store.rateLimits,
    fetchDocument: (url) =>
      fetchDocumentUrl(url, {
        allowPrivate: config.allowPrivateUrls,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      }),
    verifyAdmission: createVerifyAdmission({
      concurrent: 4,
      queued: config.verifyQueue,
      maxWaitMs: config.verifyQueueWaitMs,
      registry: metrics.registry,
    }),
    memory: createApiMemoryBudget(config.memoryLimitBytes),
    readiness: async () => ({
      ready: true,
      checks: { store: await testStore.store.ping(), analyzer: { ok: true }, accepting: { ok: true } },
    }),
    wakeBatchWorker: () => void wakes.batchWorker++,
    wakeDispatcher: () => void wakes.dispatcher++,
    accepting: () => true,
    ...options.overrides,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    clock,
    testStore,
    logs,
    get analysed() {
      return state.analysed;
    },
    wakes,
    createKey: (key) => insertKey(testStore.store, clock.now(), key),
    request: (path, init) => handle(app, path, init),
    close: () => testStore.close(),
  };
}

/** `app.handle` on a path of a fake origin, with the key as a bearer token when given. */
export function handle(
  app: Pick<App, "handle">,
  path: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<Response> {
  const { key, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key) headers.set("authorization", `Bearer ${key}`);
  return app.handle(new Request(`http://docverify.test${path}`, { ...rest, headers }));
}

/** A JSON request body with its content type. */
export const json = (
  body: unknown,
  init: RequestInit & { key?: string | null } = {},
): RequestInit & { key?: string | null } => ({
  method: "POST",
  ...init,
  headers: { "content-type": "application/json", ...(init.headers as Record<string, string> | undefined) },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
