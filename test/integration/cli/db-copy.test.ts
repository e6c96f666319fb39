// Moving a SQLite deployment to PostgreSQL: `docverify migrate` and `docverify db copy` as an
// operator runs them, against the embedded PostgreSQL of test/helpers/postgres.ts. The copy
// keeps every row, seals callback secrets under the new DOCVERIFY_SECRET_KEY, and the
// PostgreSQL store carries on where the SQLite one stopped.
import { beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase, openStore } from "../../../src/store/index.ts";
import { COPIED_TABLES } from "../../../src/store/copy.ts";
import { newDataDir, runCli } from "../../helpers/service.ts";
import { newDatabaseUrl } from "../../helpers/postgres.ts";
import { openTestStore, sqliteFileOf } from "../../helpers/store.ts";
import { MIGRATIONS } from "../../../src/store/migrations.ts";
import { POSTGRES_MIGRATIONS } from "../../../src/store/postgres-migrations.ts";

const NEW_KEY = randomBytes(32).toString("base64");
const NOW = Date.UTC(2026, 10, 20);
let dataDir: string;
let batchId: string;
/** Two key creations and the rest refusals. */
const AUDIT_ROWS = 450;

/**
 * A SQLite deployment with a row in every table, its callback secret sealed by its own key file.
 */
async function sqliteDeployment(): Promise<string> {
  const dir = newDataDir();
  const store = await openStore({ dataDir: dir });
  await store.keys.insert(
    {
      id: "key_00000000000000aa",
      mode: "live",
      plan: "trial",
      trialQuota: 5,
      rateLimitPerSecond: 2.5,
      monthlyCap: 10,
      createdAt: new Date(NOW).toISOString(),
    },
    "hash-a",
  );
  await store.keys.insert(
    {
      id: "key_00000000000000bb",
      mode: "test",
      plan: "sandbox",
      trialQuota: null,
      rateLimitPerSecond: null,
      monthlyCap: null,
      createdAt: new Date(NOW).toISOString(),
    },
    "hash-b",
  );
  expect(
    await store.usage.reserve("key_00000000000000aa", 2, { trialQuota: 5, monthlyCap: 10, pricePerDocument: 0.1 }, NOW),
  ).toMatchObject({ ok: true });
  const batch = await store.batches.create({
    keyId: "key_00000000000000bb",
    sandbox: true,
    callbackUrl: "https://a.example/hooks",
    callbackSecret: "the-callback-secret",
    // More documents and audit rows than fit one page of the copy.
    documents: [
      new Uint8Array([1, 2, 3]),
      new Uint8Array([0, 255, 7, 9]),
      ...Array.from({ length: 7 }, (_, i) => new Uint8Array([i])),
    ],
    now: NOW,
  });
  // One document done (its webhook delivered once, logged), one still pending with its bytes.
  const claimed = (await store.batches.claimNext("old-instance", NOW, 60_000))!;
  await store.batches.recordOutcome({
    batch: claimed.batch,
    documentIndex: claimed.documentIndex,
    owner: "old-instance",
    keyId: "key_00000000000000bb",
    outcome: { ok: false, error: { code: "UNSUPPORTED_FORMAT", message: "x" } },
    now: NOW,
  });
  const [due] = await store.outbox.claimDue("old-instance", NOW, 60_000, 10);
  await store.outbox.markFailed(
    due!,
    "old-instance",
    { startedAt: NOW, durationMs: 3, status: 503, error: null },
    { error: "receiver answered 503" },
    NOW + 60_000,
    NOW,
  );
  expect(await store.rateLimits.take("key_00000000000000aa", 2.5, NOW)).toEqual({ ok: true });
  await store.idempotency.claim({
    keyId: "key_00000000000000bb",
    idempotencyKey: "idem-1",
    requestHash: "h",
    now: NOW,
    ttlMs: 86_400_000,
    lockMs: 60_000,
  });
  await store.idempotency.complete("key_00000000000000bb", "idem-1", { status: 202, body: new Uint8Array([123, 125]) });
  await store.close();
  // What no store method here writes directly: a result and its fingerprint.
  const db = await openDatabase({ dataDir: dir });
  await db.run(
    "INSERT INTO verifications (id, key_id, batch_id, document_index, result, report, created_at) VALUES ('ver_1', 'key_00000000000000aa', NULL, NULL, '{\"score\":0.1}', '{}', ?)",
    [NOW],
  );
  for (let i = 0; i < AUDIT_ROWS - 2; i++)
    await db.run("INSERT INTO audit_log (at, event, key_id, details) VALUES (?, 'request.refused', NULL, '{}')", [
      new Date(NOW + i).toISOString(),
    ]);
  await db.run(
    "INSERT INTO fingerprints (key_id, verification_id, exact, identifiers, created_at, holder) VALUES ('key_00000000000000aa', 'ver_1', 'ex', '[]', ?, '[\"x\"]')",
    [NOW],
  );
  await db.close();
  batchId = batch.id;
  return dir;
}

/** Every row of every table, in key order, blobs as hex: comparable across engines. */
async function dump(read: <T>(text: string) => Promise<T[]>): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const { name, key } of COPIED_TABLES) {
    const rows = await read<Record<string, unknown>>(`SELECT * FROM ${name} ORDER BY ${key.join(", ")}`);
    tables[name] = rows.map((row) => {
      const plain = Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value,
        ]),
      );
      // Sealed again on the way: compared by what they open to, below.
      if (name === "batches") delete plain.callback_secret_sealed;
      return plain;
    });
  }
  return tables;
}

beforeAll(async () => {
  dataDir = await sqliteDeployment();
});

describe("docverify migrate", () => {
  test("applies every migration to an empty database once, then finds nothing to apply", async () => {
    const url = await newDatabaseUrl();
    const first = await runCli(["migrate"], { DOCVERIFY_DATABASE_URL: url });
    expect(first.exitCode).toBe(0);
    expect(first.stdout.trim()).toBe(
      `postgres schema at version ${POSTGRES_MIGRATIONS.length}: applied ${POSTGRES_MIGRATIONS.length} migration${POSTGRES_MIGRATIONS.length === 1 ? "" : "s"} (was 0)`,
    );
    const again = await runCli(["migrate"], { DOCVERIFY_DATABASE_URL: url });
    expect(again.stdout.trim()).toBe(`postgres schema at version ${POSTGRES_MIGRATIONS.length}; nothing to apply`);

    const sqlite = await runCli(["migrate"], { DOCVERIFY_DATA_DIR: newDataDir() });
    expect(sqlite.stdout.trim()).toBe(
      `sqlite schema at version ${MIGRATIONS.length}: applied ${MIGRATIONS.length} migrations (was 0)`,
    );
  });
});

describe("docverify db copy", () => {
  test("names every table of the schema", async () => {
    const names = sqliteFileOf(dataDir)
      .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((row) => (row as { name: string }).name);
    expect(COPIED_TABLES.map((table): string => table.name).sort()).toEqual(names);
  });

  test("copies every row into PostgreSQL, and the PostgreSQL store carries on from there", async () => {
    const url = await newDatabaseUrl();
    const copied = await runCli(["db", "copy", "--from", `sqlite:${dataDir}`, "--to", url], {
      DOCVERIFY_SECRET_KEY: NEW_KEY,
    });
    expect(copied.stderr).toBe("");
    expect(copied.exitCode).toBe(0);
    // The URL's password is never printed.
    const { password, host, pathname } = new URL(url);
    expect(copied.stdout).not.toContain(`:${password}@`);
    expect(copied.stdout).toContain(`to postgres://${host}${pathname} `);
    expect(copied.stdout).toMatch(/^\s+batch_documents\s+9$/m);
    expect(copied.stdout).toMatch(new RegExp(`^\\s+audit_log\\s+${AUDIT_ROWS}$`, "m"));

    const source = sqliteFileOf(dataDir);
    const target = await openTestStore("postgres", { secretKeys: [NEW_KEY] }, url);
    try {
      expect(await dump(target.read)).toEqual(await dump(async <T>(text: string) => source.query(text).all() as T[]));
      const [secret] = await target.read<{ callback_secret: string; callback_secret_sealed: string }>(
        "SELECT callback_secret, callback_secret_sealed FROM batches",
      );
      expect(secret!.callback_secret).toBe("");
      expect(secret!.callback_secret_sealed).not.toContain("the-callback-secret");

      const store = target.store;
      // The copied secret opens with the new key alone; the copied lease of the old instance runs
      // out.
      expect(await store.callbackSecrets.unknownKeyIds(store.keyring())).toEqual([]);
      const later = NOW + 61_000;
      const [due] = await store.outbox.claimDue("new-instance", later, 60_000, 10);
      expect(due).toMatchObject({ batchId, callbackSecret: "the-callback-secret", attempts: 2 });
      const pending = await store.batches.claimNext("new-instance", later, 60_000);
      expect(pending).toMatchObject({ documentIndex: 1, content: new Uint8Array([0, 255, 7, 9]) });
      expect(await store.keys.findByHash("hash-a", new Date(later).toISOString())).toMatchObject({
        ok: true,
        record: { id: "key_00000000000000aa", trialQuota: 5, rateLimitPerSecond: 2.5 },
      });
      // Usage carried over: three more documents pass the trial quota of five, a fourth does not.
      expect(
        await store.usage.reserve(
          "key_00000000000000aa",
          3,
          { trialQuota: 5, monthlyCap: null, pricePerDocument: 0.1 },
          later,
        ),
      ).toMatchObject({ ok: true });
      expect(
        await store.usage.reserve(
          "key_00000000000000aa",
          1,
          { trialQuota: 5, monthlyCap: null, pricePerDocument: 0.1 },
          later,
        ),
      ).toEqual({ ok: false, reason: "trial_exhausted" });
      // New audit rows number on from the copied ones.
      await store.keys.insert(
        {
          id: "key_00000000000000cc",
          mode: "test",
          plan: "sandbox",
          trialQuota: null,
          rateLimitPerSecond: null,
          monthlyCap: null,
          createdAt: new Date(later).toISOString(),
        },
        "hash-c",
      );
      expect((await target.read<{ id: number }>("SELECT id FROM audit_log ORDER BY id")).map((row) => row.id)).toEqual(
        Array.from({ length: AUDIT_ROWS + 1 }, (_, i) => i + 1),
      );

      // A second copy into the same database is refused, and changes nothing.
      const again = await runCli(["db", "copy", "--from", `sqlite:${dataDir}`, "--to", url], {
        DOCVERIFY_SECRET_KEY: NEW_KEY,
      });
      expect(again.exitCode).toBe(2);
      expect(again.stderr.trim()).toBe(
        "docverify: the target already holds rows in api_keys: db copy fills an empty database only; nothing was copied",
      );
      expect(await target.read("SELECT id FROM api_keys")).toHaveLength(3);
    } finally {
      source.close();
      await target.close();
    }
  });

  test("copies back from PostgreSQL into an empty data directory", async () => {
    const url = await newDatabaseUrl();
    expect(
      (await runCli(["db", "copy", "--from", `sqlite:${dataDir}`, "--to", url], { DOCVERIFY_SECRET_KEY: NEW_KEY }))
        .exitCode,
    ).toBe(0);
    const back = newDataDir();
    const result = await runCli(["db", "copy", "--from", url, "--to", `sqlite:${back}`], {
      DOCVERIFY_SECRET_KEY: NEW_KEY,
    });
    expect(result.stderr).toBe("");
    const source = sqliteFileOf(dataDir);
    const copy = sqliteFileOf(back);
    try {
      const read =
        (db: typeof source) =>
        async <T>(text: string) =>
          db.query(text).all() as T[];
      expect(await dump(read(copy))).toEqual(await dump(read(source)));
    } finally {
      source.close();
      copy.close();
    }
  });

  test("is refused while a serve process holds the SQLite data directory, or without DOCVERIFY_SECRET_KEY", async () => {
    const url = await newDatabaseUrl();
    const busy = newDataDir();
    // This test process is alive: to the copy it is a running serve.
    writeFileSync(join(busy, "serve.pid"), String(process.pid));
    const held = await runCli(["db", "copy", "--from", `sqlite:${busy}`, "--to", url], {
      DOCVERIFY_SECRET_KEY: NEW_KEY,
    });
    expect(held.exitCode).toBe(2);
    expect(held.stderr).toContain("DOCVERIFY_DATA_DIR");

    const keyless = await runCli(["db", "copy", "--from", `sqlite:${dataDir}`, "--to", url], {
      DOCVERIFY_SECRET_KEY: "",
    });
    expect(keyless.exitCode).toBe(2);
    expect(keyless.stderr).toMatch(/^docverify: DOCVERIFY_SECRET_KEY: /);

    const unknown = await runCli(["db", "copy", "--from", "mysql://x", "--to", url], { DOCVERIFY_SECRET_KEY: NEW_KEY });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("--from: expected sqlite:DIR");
  });
});
