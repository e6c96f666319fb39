// `docverify audit`: the audit log as JSON lines, oldest first, for a SIEM or jq.
import type { Config } from "../config.ts";
import { openStore } from "../store/index.ts";
import { UsageError } from "./keys.ts";

export async function auditLines(config: Config, flags: Map<string, string>): Promise<string[]> {
  const since = flags.get("--since");
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw new UsageError(`--since: expected a date like 2026-11-26 or 2026-11-26T10:00:00Z, got "${since}"`);
  const limit = flags.get("--limit");
  if (limit !== undefined && !/^[1-9]\d*$/.test(limit))
    throw new UsageError(`--limit: expected a positive whole number, got "${limit}"`);
  const store = await openStore(config);
  try {
    const entries = await store.audit.list({
      since: since === undefined ? undefined : new Date(since).toISOString(),
      keyId: flags.get("--key"),
      limit: limit === undefined ? undefined : Number(limit),
    });
    return entries.map((entry) =>
      JSON.stringify({ at: entry.at, event: entry.event, keyId: entry.keyId, ...entry.details }),
    );
  } finally {
    await store.close();
  }
}
