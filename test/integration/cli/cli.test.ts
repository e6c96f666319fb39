import { describe, expect, test } from "bun:test";
import { newDataDir, runCli } from "../../helpers/service.ts";

describe("configuration", () => {
  test.each([
    ["DOCVERIFY_PORT", "eighty"],
    ["DOCVERIFY_WEBHOOK_RETRY_SCHEDULE", "1m,soon"],
    ["DOCVERIFY_ALLOW_PRIVATE_URLS", "maybe"],
    ["DOCVERIFY_SIDECAR_DEVICE", "tpu"],
    ["DOCVERIFY_SIDECAR", "not a host"],
    ["DOCVERIFY_SECRET_KEY", "c2hvcnQ="],
  ])("a bad %s stops start-up with exit 2 and one line naming it", async (setting, value) => {
    const result = await runCli(["serve"], { [setting]: value, DOCVERIFY_DATA_DIR: newDataDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^docverify: ${setting}: .+`))]);
  });

  test("a flag means the same as its environment variable", async () => {
    const result = await runCli(["serve", "--port", "eighty"], { DOCVERIFY_DATA_DIR: newDataDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toMatch(/^docverify: DOCVERIFY_PORT: /);
  });
});

describe("keys", () => {
  test("create prints the key last, list never shows it, revoke takes the id or the key", async () => {
    const env = { DOCVERIFY_DATA_DIR: newDataDir() };
    const created = await runCli(
      [
        "keys",
        "create",
        "--mode",
        "live",
        "--plan",
        "trial",
        "--trial-quota",
        "10",
        "--rate-limit",
        "5/s",
        "--monthly-cap",
        "25",
      ],
      env,
    );
    expect(created.exitCode).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);

    const listed = await runCli(["keys", "list"], env);
    expect(listed.stdout).not.toContain(key.slice(9));
    expect(listed.stdout).toMatch(/key_[0-9a-f]{16}\s+live\s+trial\s+10\s+5\/s\s+25\s+\S+\s+-/);
    const id = /key_[0-9a-f]{16}/.exec(listed.stdout)![0];

    expect((await runCli(["keys", "revoke", key], env)).stdout).toContain(id);
    expect((await runCli(["keys", "list"], env)).stdout).not.toMatch(/\s-\s*$/m);
    const unknown = await runCli(["keys", "revoke", "key_0000000000000000"], env);
    expect(unknown.exitCode).toBe(2);
  });

  test("the key is stored hashed: the database file does not contain it", async () => {
    const dataDir = newDataDir();
    const created = await runCli(["keys", "create", "--mode", "test"], { DOCVERIFY_DATA_DIR: dataDir });
    const key = created.stdout.trim();
    expect(key).toStartWith("svc_test_");
    const { readdirSync, readFileSync } = await import("node:fs");
    for (const file of readdirSync(dataDir))
      expect(readFileSync(`${dataDir}/${file}`).includes(Buffer.from(key))).toBe(false);
  });

  test("test keys are never counted against quotas: billing flags are refused for them", async () => {
    const result = await runCli(["keys", "create", "--mode", "test", "--trial-quota", "5"], {
      DOCVERIFY_DATA_DIR: newDataDir(),
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("test keys");
  });

  test("an unknown command is a usage error", async () => {
    const result = await runCli(["frobnicate"], { DOCVERIFY_DATA_DIR: newDataDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command");
  });
});
