// Trial quota and monthly spend cap for live keys. Test keys are never billed nor counted.
import { AppError } from "../errors";
import type { ApiKeyRecord } from "../store/keys";
import type { Reservation, UsageStore } from "../store/usage";

/** Seconds from `nowMs` until 00:00 UTC on the 1st of next month. */
export function secondsUntilNextMonth(nowMs: number): number {
  const now = new Date(nowMs);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - nowMs) / 1000);
}

/** Reserves `documents` against the key's limits or throws the matching error. Null for test keys. */
export async function reserveDocuments(usage: UsageStore, key: ApiKeyRecord, documents: number, pricePerDocument: number, nowMs: number): Promise<Reservation | null> {
  if (key.mode === "test") return null;
  const outcome = await usage.reserve(key.id, documents, { trialQuota: key.trialQuota, monthlyCap: key.monthlyCap, pricePerDocument }, nowMs);
  if (outcome.ok) return outcome.reservation;
  if (outcome.reason === "trial_exhausted") {
    throw new AppError("TRIAL_EXHAUSTED", `The free trial quota of ${key.trialQuota} documents does not cover ${documents} more`);
  }
  throw new AppError("CAP_EXCEEDED", "The monthly spend cap would be passed", { retryAfterSec: secondsUntilNextMonth(nowMs) });
}
