// Callback secrets at rest, end to end: a real service stores one, a real HTTPS receiver
// checks the signatures made with it, and the database files are searched for it byte by
// byte; `docverify secrets rotate` re-seals it under a new key the restarted service uses.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import { eventually, newDataDir, runCli, startService, type TestService } from "../../helpers/service.ts";
import { makeTestCa, type TestTls } from "../../helpers/tls.ts";
import { startWebhookReceiver } from "../../helpers/webhook-receiver.ts";

const SECRET = "unmistakable-callback-secret-7f3a9c";
let tls: TestTls;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let service: TestService | undefined;
let accept = false;
const dataDir = newDataDir();
let batchId: string;

const env = () => ({
  NODE_EXTRA_CA_CERTS: tls.caFile,
  DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
  DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s,1s,1s,1s,1s,1s",
  DOCVERIFY_OUTBOX_POLL_MS: "50",
});

/** Files of the data directory whose bytes contain the secret, in UTF-8 or base64. */
const filesHoldingSecret = () =>
  readdirSync(dataDir).filter((file) => {
    const bytes = readFileSync(join(dataDir, file));
    return (
      bytes.includes(Buffer.from(SECRET, "utf8")) || bytes.includes(Buffer.from(Buffer.from(SECRET).toString("base64")))
    );
  });

beforeAll(async () => {
  tls = await makeTestCa();
  receiver = await startWebhookReceiver(tls, () => (accept ? 200 : 503));
});

afterAll(async () => {
  await service?.stop();
  receiver?.stop();
});

test("the database files never hold a callback secret, yet every delivery is signed with it", async () => {
  service = await startService({ dataDir, env: env() });
  const key = await service.createKey("--mode", "test");
  const response = await fetch(`${service.url}/api/v1/verify/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      documents: [Buffer.from("not a document").toString("base64")],
      callbackUrl: receiver.url,
      callbackSecret: SECRET,
    }),
  });
  expect(response.status).toBe(202);
  batchId = (await response.json()).data.batchId;
  const [hook] = await eventually(() =>
    receiver.forBatch(batchId).length > 0 ? receiver.forBatch(batchId) : undefined,
  );
  expect(await verifySignature(SECRET, hook!.raw, hook!.signature!)).toBe(true);

  expect(filesHoldingSecret()).toEqual([]);
  expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
  expect(service.logs()).not.toContain(SECRET);
});

test("secrets rotate is refused while the service runs", async () => {
  const result = await runCli(["secrets", "rotate"], { DOCVERIFY_DATA_DIR: dataDir });
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toContain("in use by another docverify serve");
});

test("secrets rotate re-seals under a new key, deletes the old one, and the restarted service signs with the same secret", async () => {
  expect(await service!.stop()).toBe(0);
  service = undefined;
  const before = readFileSync(join(dataDir, "secret.key"), "utf8");
  const result = await runCli(["secrets", "rotate"], { DOCVERIFY_DATA_DIR: dataDir });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/re-sealed 1 callback secrets under new key [0-9a-f]{16}/);
  const after = readFileSync(join(dataDir, "secret.key"), "utf8");
  const keysOf = (file: string) => file.split("\n").filter((line) => line && !line.startsWith("#"));
  expect(keysOf(after)).toHaveLength(1);
  expect(keysOf(before)).not.toContain(keysOf(after)[0]);
  expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);

  accept = true;
  const seen = receiver.forBatch(batchId).length;
  service = await startService({ dataDir, env: env() });
  const hooks = await eventually(
    () => (receiver.forBatch(batchId).length > seen ? receiver.forBatch(batchId) : undefined),
    30_000,
  );
  for (const hook of hooks.slice(seen)) expect(await verifySignature(SECRET, hook.raw, hook.signature!)).toBe(true);
  expect(filesHoldingSecret()).toEqual([]);
});

test("a service whose key cannot open the stored secrets refuses to start", async () => {
  expect(await service!.stop()).toBe(0);
  service = undefined;
  const result = await runCli(["serve"], {
    DOCVERIFY_DATA_DIR: dataDir,
    DOCVERIFY_PORT: "0",
    DOCVERIFY_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  });
  expect(result.exitCode).toBe(2);
  expect(result.stderr.trim()).toMatch(
    /^docverify: DOCVERIFY_SECRET_KEY: callback secrets are sealed under key [0-9a-f]{16}, which DOCVERIFY_SECRET_KEY does not hold$/m,
  );
});

test("with DOCVERIFY_SECRET_KEY, rotation re-seals under its first key and the service then needs only that one", async () => {
  const fileKey = readFileSync(join(dataDir, "secret.key"), "utf8")
    .split("\n")
    .find((line) => line && !line.startsWith("#"))!;
  const newKey = Buffer.alloc(32, 9).toString("base64");
  const rotated = await runCli(["secrets", "rotate"], {
    DOCVERIFY_DATA_DIR: dataDir,
    DOCVERIFY_SECRET_KEY: `${newKey},${fileKey}`,
  });
  expect(rotated.exitCode).toBe(0);
  expect(rotated.stdout).toMatch(
    /re-sealed 1 callback secrets under key [0-9a-f]{16}; the other 1 key\(s\) may now be removed from DOCVERIFY_SECRET_KEY/,
  );
  service = await startService({ dataDir, env: { ...env(), DOCVERIFY_SECRET_KEY: newKey } });
  expect(filesHoldingSecret()).toEqual([]);
});
