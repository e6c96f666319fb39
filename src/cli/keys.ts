// `docverify keys create|list|revoke`: key administration on the server's data directory.
// A running service reads keys on every request, so changes apply to it at once.
import type { Config } from "../config";
import { createStore } from "../store";
import type { Plan } from "../store/keys";
import { generateKey, hashKey, looksLikeKey, newKeyId, type KeyMode } from "../keys/secret";

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

export function createKey(config: Config, flags: Map<string, string>, now = new Date()): string {
  const mode = flags.get("--mode");
  if (mode !== "test" && mode !== "live") throw new UsageError("--mode must be test or live");
  const billed = ["--plan", "--trial-quota", "--monthly-cap"].filter((flag) => flags.has(flag));
  if (mode === "test" && billed.length > 0) throw new UsageError(`${billed.join(", ")}: test keys are never billed; these apply to live keys only`);

  const rawPlan = flags.get("--plan") ?? (flags.has("--trial-quota") ? "trial" : "paid");
  if (rawPlan !== "trial" && rawPlan !== "paid") throw new UsageError("--plan must be trial or paid");
  const plan: Plan = mode === "test" ? "sandbox" : rawPlan;
  if (plan === "paid" && flags.has("--trial-quota")) throw new UsageError("--trial-quota applies to --plan trial only");
  const trialQuota = plan === "trial" ? parseWhole("--trial-quota", flags.get("--trial-quota") ?? "100") : null;

  const key = generateKey(mode as KeyMode);
  const store = createStore(config.dataDir);
  try {
    store.keys.insert(
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
    store.close();
  }
  return key;
}

export function listKeys(config: Config): string {
  const store = createStore(config.dataDir);
  try {
    const rows = store.keys.list().map((key) => [
      key.id,
      key.mode,
      key.plan,
      key.trialQuota === null ? "-" : String(key.trialQuota),
      key.rateLimitPerSecond === null ? "-" : `${key.rateLimitPerSecond}/s`,
      key.monthlyCap === null ? "-" : String(key.monthlyCap),
      key.createdAt,
      key.revokedAt ?? "-",
    ]);
    const header = ["ID", "MODE", "PLAN", "TRIAL_QUOTA", "RATE_LIMIT", "MONTHLY_CAP", "CREATED", "REVOKED"];
    const table = [header, ...rows];
    const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
    return table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n");
  } finally {
    store.close();
  }
}

export function revokeKey(config: Config, idOrKey: string | undefined, now = new Date()): string {
  if (!idOrKey) throw new UsageError("usage: docverify keys revoke ID|KEY");
  const store = createStore(config.dataDir);
  try {
    const target = looksLikeKey(idOrKey) ? { keyHash: hashKey(idOrKey) } : { id: idOrKey };
    const revoked = store.keys.revoke(target, now.toISOString());
    if (!revoked) throw new UsageError(`no key matches ${looksLikeKey(idOrKey) ? "that key" : idOrKey}`);
    return revoked;
  } finally {
    store.close();
  }
}

