// `docverify keys create|list|rotate|revoke`: key administration on the server's data
// directory. A running service reads keys on every request, so changes apply to it at once.
// Every change is written to the audit log with the change itself (store/keys.ts).
import type { Config } from "../config.ts";
import { openStore } from "../store/index.ts";
import type { Plan } from "../store/keys.ts";
import { generateKey, hashKey, looksLikeKey, newKeyId, type KeyMode } from "../keys/secret.ts";

export class UsageError extends Error {}

const parseRate = (raw: string): number => {
  const match = /^(\d+(?:\.\d+)?)\s*(?:\/s)?$/.exec(raw.trim());
  if (!match || Number(match[1]) <= 0) throw new UsageError(`--rate-limit: expected N/s with N > 0, got "${raw}"`);
  return Number(match[1]);
};

const parseWhole = (flag: string, raw: string): number => {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag}: expected a whole number, got "${raw}"`);
  return Number(raw);
};

const parseAmount = (flag: string, raw: string): number => {
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`${flag}: expected an amount like 250 or 99.50, got "${raw}"`);
  return Number(raw);
};

export async function createKey(config: Config, flags: Map<string, string>, now = new Date()): Promise<string> {
  const mode = flags.get("--mode");
  if (mode !== "test" && mode !== "live") throw new UsageError("--mode must be test or live");
  const billed = ["--plan", "--trial-quota", "--monthly-cap"].filter((flag) => flags.has(flag));
  if (mode === "test" && billed.length > 0)
    throw new UsageError(`${billed.join(", ")}: test keys are never billed; these apply to live keys only`);

  const rawPlan = flags.get("--plan") ?? (flags.has("--trial-quota") ? "trial" : "paid");
  if (rawPlan !== "trial" && rawPlan !== "paid") throw new UsageError("--plan must be trial or paid");
  const plan: Plan = mode === "test" ? "sandbox" : rawPlan;
  if (plan === "paid" && flags.has("--trial-quota")) throw new UsageError("--trial-quota applies to --plan trial only");
  const trialQuota = plan === "trial" ? parseWhole("--trial-quota", flags.get("--trial-quota") ?? "100") : null;

  const key = generateKey(mode as KeyMode);
  const store = await openStore(config);
  try {
    await store.keys.insert(
      {
        id: newKeyId(),
        mode: mode as KeyMode,
        plan,
        trialQuota,
        rateLimitPerSecond: flags.has("--rate-limit") ? parseRate(flags.get("--rate-limit")!) : null,
        monthlyCap: flags.has("--monthly-cap") ? parseAmount("--monthly-cap", flags.get("--monthly-cap")!) : null,
        createdAt: now.toISOString(),
      },
      hashKey(key),
    );
  } finally {
    await store.close();
  }
  return key;
}

const DURATION_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "24h", "90m", "7d", "0s": how long a rotated-out key stays valid. */
function parseGrace(raw: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(raw.trim());
  if (!match) throw new UsageError(`--grace: expected a duration like 24h, 90m, 7d or 0s, got "${raw}"`);
  return Number(match[1]) * DURATION_MS[match[2]!]!;
}

export async function listKeys(config: Config, now = new Date()): Promise<string> {
  const store = await openStore(config);
  try {
    const rows = (await store.keys.list(now.toISOString())).map((key) => [
      key.id,
      key.mode,
      key.plan,
      key.trialQuota === null ? "-" : String(key.trialQuota),
      key.rateLimitPerSecond === null ? "-" : `${key.rateLimitPerSecond}/s`,
      key.monthlyCap === null ? "-" : String(key.monthlyCap),
      key.createdAt,
      key.lastUsedAt ?? "-",
      key.previousValidUntil ?? "-",
      key.revokedAt ?? "-",
    ]);
    const header = [
      "ID",
      "MODE",
      "PLAN",
      "TRIAL_QUOTA",
      "RATE_LIMIT",
      "MONTHLY_CAP",
      "CREATED",
      "LAST_USED",
      "OLD_KEY_UNTIL",
      "REVOKED",
    ];
    const table = [header, ...rows];
    const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
    return table
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join("  ")
          .trimEnd(),
      )
      .join("\n");
  } finally {
    await store.close();
  }
}

/**
 * Issues a new key for the same account (same id, limits, usage and results); the old key is
 * accepted until the grace period ends. Returns lines to print, the new key last.
 */
export async function rotateKey(
  config: Config,
  id: string | undefined,
  flags: Map<string, string>,
  now = new Date(),
): Promise<string[]> {
  if (!id || looksLikeKey(id)) throw new UsageError("usage: docverify keys rotate ID [--grace 24h]");
  const graceMs = parseGrace(flags.get("--grace") ?? "24h");
  const store = await openStore(config);
  try {
    const existing = await store.keys.get(id);
    if (!existing) throw new UsageError(`no key matches ${id}`);
    if (existing.revokedAt !== null) throw new UsageError(`${id} is revoked; create a new key instead`);
    const key = generateKey(existing.mode);
    const graceUntil = new Date(now.getTime() + graceMs).toISOString();
    if (!(await store.keys.rotate(id, hashKey(key), now.toISOString(), graceUntil)))
      throw new UsageError(`${id} could not be rotated`);
    return [`rotated ${id}; the previous key is accepted until ${graceUntil}`, key];
  } finally {
    await store.close();
  }
}

export async function revokeKey(config: Config, idOrKey: string | undefined, now = new Date()): Promise<string> {
  if (!idOrKey) throw new UsageError("usage: docverify keys revoke ID|KEY");
  const store = await openStore(config);
  try {
    const target = looksLikeKey(idOrKey) ? { keyHash: hashKey(idOrKey) } : { id: idOrKey };
    const outcome = await store.keys.revoke(target, now.toISOString());
    if (!outcome) throw new UsageError(`no key matches ${looksLikeKey(idOrKey) ? "that key" : idOrKey}`);
    return outcome.kind === "revoked"
      ? `revoked ${outcome.keyId}`
      : `ended the grace period of a rotated-out key of ${outcome.keyId}; its current key still works`;
  } finally {
    await store.close();
  }
}
