// A data directory written by an earlier release upgrades on open: its batches, deliveries
// and keys carry on under the new schema.
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "bun:test";
import { openStore, type Store } from "../../../src/store/index.ts";
import { MIGRATIONS } from "../../../src/store/migrations.ts";
import { newDataDir } from "../../helpers/service.ts";
import { sqliteFileOf } from "../../helpers/store.ts";

/** The schema of the release before the delivery log (three migrations). */
const PREVIOUS_VERSION = 3;
const opened: Store[] = [];
afterAll(() => Promise.all(opened.map((store) => store.close())));

function previousReleaseDataDir(): string {
  const dataDir = newDataDir();
  const db = new Database(join(dataDir, "docverify.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  for (const migration of MIGRATIONS.slice(0, PREVIOUS_VERSION)) db.exec(migration);
  db.exec(`PRAGMA user_version = ${PREVIOUS_VERSION}`);
  db.query(
    `INSERT INTO api_keys (id, key_hash, mode, plan, created_at) VALUES ('key_0123456789abcdef', 'hash', 'test', 'sandbox', '2026-11-01T00:00:00.000Z')`,
  ).run();
  db.query(
    `INSERT INTO batches (id, key_id, sandbox, total, completed, failed, status, callback_url, callback_secret, created_at)
     VALUES ('0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918', 'key_0123456789abcdef', 1, 1, 1, 1, 'completed', 'https://a.example/hooks', 'an-old-plaintext-secret', 1000)`,
  ).run();
  db.query(
    `INSERT INTO outbox (delivery_id, batch_id, document_index, body, state, attempts, next_attempt_at, last_status, created_at)
     VALUES ('8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b', '0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918', 0, ?, 'pending', 1, 2000, 503, 1000)`,
  ).run(Buffer.from('{"batchId":"0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918","documentIndex":0}'));
  db.close();
  return dataDir;
}

test("a database of the previous release migrates, and its pending delivery is sent and logged", async () => {
  const dataDir = previousReleaseDataDir();
  const store = await openStore({ dataDir });
  opened.push(store);
  expect(sqliteFileOf(dataDir).query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
  const batchId = "0b8f6f5e-3c1d-4a7e-9f2b-6d5c4b3a2918";
  expect(await store.outbox.listForBatch(batchId)).toEqual([
    {
      deliveryId: "8b0f2c7e-3d1a-4e59-9c1b-2a7f6e5d4c3b",
      documentIndex: 0,
      state: "pending",
      attempts: [],
      nextAttemptAt: 2000,
    },
  ]);
  const [due] = await store.outbox.claimDue("d", 2000, 1000, 10);
  expect(due).toEqual(
    expect.objectContaining({
      attempts: 2,
      redeliverAt: null,
      callbackSecret: "an-old-plaintext-secret",
      callbackUrl: "https://a.example/hooks",
    }),
  );
  expect(
    await store.outbox.markDelivered(due!, "d", { startedAt: 2000, durationMs: 5, status: 200, error: null }, 2005),
  ).toBe(true);
  expect((await store.outbox.listForBatch(batchId))[0]).toEqual(
    expect.objectContaining({ state: "delivered", attempts: [expect.objectContaining({ attempt: 1, status: 200 })] }),
  );
  expect((await store.keys.list(new Date().toISOString())).map((key) => key.id)).toEqual(["key_0123456789abcdef"]);
  // The key's hash became its one secret: the key authenticates as before.
  expect(await store.keys.findByHash("hash", new Date().toISOString())).toEqual(
    expect.objectContaining({ ok: true, record: expect.objectContaining({ id: "key_0123456789abcdef" }) }),
  );
});

test("opening a migrated database again changes nothing", async () => {
  const dataDir = previousReleaseDataDir();
  await (await openStore({ dataDir })).close();
  const store = await openStore({ dataDir });
  opened.push(store);
  expect(sqliteFileOf(dataDir).query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
  expect(await store.outbox.counts()).toEqual({ pending: 1, delivered: 0, failed: 0 });
});

/** Every file of the data directory (database, WAL, shared memory) holding `needle`. */
const filesHolding = (dataDir: string, needle: string): string[] =>
  readdirSync(dataDir).filter((file) => readFileSync(join(dataDir, file)).includes(Buffer.from(needle, "utf8")));

test("a plaintext callback secret of the previous release is sealed and leaves no trace in the database files", async () => {
  const dataDir = previousReleaseDataDir();
  expect(filesHolding(dataDir, "an-old-plaintext-secret").length).toBeGreaterThan(0);
  const store = await openStore({ dataDir });
  opened.push(store);
  expect(await store.callbackSecrets.sealAll(store.keyring())).toBe(1);
  expect(await store.callbackSecrets.sealAll(store.keyring())).toBe(0);
  const [due] = await store.outbox.claimDue("d", 2000, 1000, 10);
  expect(due!.callbackSecret).toBe("an-old-plaintext-secret");
  await store.close();
  opened.pop();
  expect(filesHolding(dataDir, "an-old-plaintext-secret")).toEqual([]);
});
