// Key rotation, last use and the audit log, end to end: the real CLI against a running
// service's data directory, requests over loopback HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startService, type TestService } from "../../helpers/service.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

let service: TestService;
let jpegBase64: string;

const get = (path: string, key: string) =>
  fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const verify = (key: string) =>
  fetch(`${service.url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ document: jpegBase64 }),
  });
/** The id of the key created last (keys are listed oldest first). */
const newestKeyId = async () => {
  const listed = (await service.cli("keys", "list")).stdout.trim().split("\n");
  return /key_[0-9a-f]{16}/.exec(listed.at(-1)!)![0];
};
const audit = async (...args: string[]) => {
  const result = await service.cli("audit", ...args);
  expect(result.exitCode).toBe(0);
  return result.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};
const rowOf = async (id: string) =>
  (await service.cli("keys", "list")).stdout
    .split("\n")
    .find((line) => line.startsWith(id))!
    .split(/\s{2,}/);

beforeAll(async () => {
  jpegBase64 = Buffer.from(await makeJpeg()).toString("base64");
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
});

describe("keys rotate", () => {
  test("issues a new key for the same account, limits and history; the old one works for the grace period, then is refused", async () => {
    const oldKey = await service.createKey(
      "--mode",
      "live",
      "--plan",
      "trial",
      "--trial-quota",
      "1",
      "--rate-limit",
      "50/s",
    );
    const id = await newestKeyId();
    const analysed = await verify(oldKey);
    expect(analysed.status).toBe(200);
    const verificationId: string = (await analysed.json()).data.id;

    const rotated = await service.cli("keys", "rotate", id, "--grace", "3s");
    expect(rotated.exitCode).toBe(0);
    const lines = rotated.stdout.trim().split("\n");
    const newKey = lines.at(-1)!;
    expect(newKey).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(oldKey);
    expect(lines[0]).toMatch(new RegExp(`^rotated ${id}; the previous key is accepted until \\d{4}-`));

    // Same history: the new key reads what the old one analysed.
    expect((await get(`/api/v1/verifications/${verificationId}`, newKey)).status).toBe(200);
    // Same account: the quota the old key used up binds the new one; the same id is listed once.
    const refused = await verify(newKey);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("TRIAL_EXHAUSTED");
    const row = await rowOf(id);
    expect(row.slice(1, 6)).toEqual(["live", "trial", "1", "50/s", "-"]);
    expect(row[8]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await service.cli("keys", "list")).stdout.match(new RegExp(id, "g"))).toHaveLength(1);

    // Both keys authenticate during the grace period (a missing batch is a 404, not a 401).
    const missing = `/api/v1/batches/${crypto.randomUUID()}`;
    expect((await get(missing, oldKey)).status).toBe(404);
    expect((await get(missing, newKey)).status).toBe(404);
    await eventually(async () => ((await get(missing, oldKey)).status === 401 ? true : undefined), 15_000, 250);
    expect((await get(missing, newKey)).status).toBe(404);
    expect((await rowOf(id))[8]).toBe("-");

    const events = await audit("--key", id);
    expect(events.map((event) => event.event)).toEqual(
      expect.arrayContaining(["key.created", "key.rotated", "request.refused"]),
    );
    expect(events.find((event) => event.event === "key.rotated")).toEqual(
      expect.objectContaining({ keyId: id, previousValidUntil: expect.any(String) }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        event: "request.refused",
        keyId: id,
        status: 402,
        code: "TRIAL_EXHAUSTED",
        method: "POST",
        path: "/api/v1/verify",
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        event: "request.refused",
        keyId: id,
        status: 401,
        code: "UNAUTHORIZED",
        reason: "expired",
        path: missing,
      }),
    );
  });

  test("revoking the rotated-out key ends its grace at once and leaves the new key working", async () => {
    const oldKey = await service.createKey("--mode", "test");
    const id = await newestKeyId();
    const newKey = (await service.cli("keys", "rotate", id)).stdout.trim().split("\n").at(-1)!;
    const missing = `/api/v1/batches/${crypto.randomUUID()}`;
    expect((await get(missing, oldKey)).status).toBe(404);
    const revoked = await service.cli("keys", "revoke", oldKey);
    expect(revoked.exitCode).toBe(0);
    expect(revoked.stdout).toContain(`ended the grace period of a rotated-out key of ${id}`);
    expect((await get(missing, oldKey)).status).toBe(401);
    expect((await get(missing, newKey)).status).toBe(404);
    expect((await audit("--key", id)).map((event) => event.event)).toContain("key.grace_ended");

    expect((await service.cli("keys", "revoke", id)).stdout).toContain(`revoked ${id}`);
    expect((await get(missing, newKey)).status).toBe(401);
    expect((await service.cli("keys", "rotate", id)).exitCode).toBe(2);
    expect((await audit("--key", id)).map((event) => event.event)).toContain("key.revoked");
  });

  test("refuses a bad grace and an unknown id with exit 2", async () => {
    await service.createKey("--mode", "test");
    expect((await service.cli("keys", "rotate", await newestKeyId(), "--grace", "soon")).exitCode).toBe(2);
    expect((await service.cli("keys", "rotate", "key_0000000000000000")).exitCode).toBe(2);
  });
});

describe("keys list", () => {
  test("shows when a key was last used", async () => {
    const key = await service.createKey("--mode", "test");
    const id = await newestKeyId();
    expect((await rowOf(id))[7]).toBe("-");
    const before = Date.now();
    await get(`/api/v1/batches/${crypto.randomUUID()}`, key);
    const lastUsed = Date.parse((await rowOf(id))[7]!);
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1000);
    expect(lastUsed).toBeLessThanOrEqual(Date.now());
  });
});

describe("the audit log", () => {
  test("records rate-limited and unknown-key refusals, folding a burst into one row, without keys or content", async () => {
    const key = await service.createKey("--mode", "test", "--rate-limit", "1/s");
    const id = await newestKeyId();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => get(`/api/v1/batches/${crypto.randomUUID()}`, key).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(4);
    const limited = (await audit("--key", id)).filter((event) => event.code === "RATE_LIMITED");
    expect(limited).toHaveLength(1);
    expect(limited[0]).toEqual(
      expect.objectContaining({ status: 429, method: "GET", requestId: expect.stringMatching(/^req_/) }),
    );

    const unknown = `svc_test_${"A".repeat(43)}`;
    expect((await get("/api/v1/verifications/ver_00000000000000000000000000000000", unknown)).status).toBe(401);
    const all = await audit();
    expect(all).toContainEqual(
      expect.objectContaining({
        event: "request.refused",
        keyId: null,
        reason: "unknown",
        tokenHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      }),
    );
    const text = JSON.stringify(all);
    expect(text).not.toContain(unknown);
    expect(text).not.toContain(key);
    expect(text).not.toContain(jpegBase64.slice(0, 64));
    expect(all.every((event) => typeof event.at === "string" && typeof event.event === "string")).toBe(true);
  });

  test("filters by time and limits its length", async () => {
    const future = await audit("--since", "2999-01-01");
    expect(future).toEqual([]);
    expect(await audit("--limit", "2")).toHaveLength(2);
    expect((await service.cli("audit", "--since", "yesterday-ish")).exitCode).toBe(2);
  });
});
