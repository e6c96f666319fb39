// Trial quota and monthly spend cap for live keys. Test keys are never billed nor counted.
import { AppError } from "../errors.ts";
import type { ApiKeyRecord } from "../store/keys.ts";
import type { Reservation, UsageStore } from "../store/usage.ts";

/** Seconds from `nowMs` until 00:00 UTC on the 1st of next month. */
function secondsUntilNextMonth(nowMs: number): number {
  const now = new Date(nowMs);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - nowMs) / 1000);
}

/**
 * Reserves `documents` against the key's limits or throws the matching error. Null for test keys.
 */
async function reserveDocuments(
  usage: UsageStore,
  key: ApiKeyRecord,
  documents: number,
  pricePerDocument: number,
  nowMs: number,
): Promise<Reservation | null> {
  if (key.mode === "test") return null;
  const outcome = await usage.reserve(
    key.id,
    documents,
    { trialQuota: key.trialQuota, monthlyCap: key.monthlyCap, pricePerDocument },
    nowMs,
  );
  if (outcome.ok) return outcome.reservation;
  if (outcome.reason === "trial_exhausted") {
    throw new AppError(
      "TRIAL_EXHAUSTED",
      `The free trial quota of ${key.trialQuota} documents does not cover ${documents} more`,
    );
  }
  throw new AppError("CAP_EXCEEDED", "The monthly spend cap would be passed", {
    retryAfterSec: secondsUntilNextMonth(nowMs),
  });
}

export interface ReservationRequest {
  usage: UsageStore;
  key: ApiKeyRecord;
  documents: number;
  pricePerDocument: number;
  nowMs: number;
}

/**
 * Reserves the documents (reserveDocuments), runs `work`, and gives the reservation back if
 * the work throws: a request that failed is neither counted against the quota nor billed,
 * and the error is the work's. What the work returns is kept billed.
 */
export async function withReservation<T>(request: ReservationRequest, work: () => Promise<T>): Promise<T> {
  const { usage, key, documents, pricePerDocument, nowMs } = request;
  const reservation = await reserveDocuments(usage, key, documents, pricePerDocument, nowMs);
  try {
    return await work();
  } catch (error) {
    if (reservation) await usage.release(reservation);
    throw error;
  }
}
