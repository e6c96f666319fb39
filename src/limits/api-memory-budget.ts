// The API process's memory budget (memory-budget.ts): what the documents in flight may hold
// together (verifies and batch documents alike) and the request bodies being read or held
// (src/api/body-memory.ts). Each waits for room under DOCVERIFY_MEMORY_LIMIT, and what could
// never fit is refused with FILE_TOO_LARGE.
import { AppError } from "../errors.ts";
import { API_IDLE_BYTES } from "../analysis/memory-estimate.ts";
import { createMemoryBudget, type MemoryBudget } from "./memory-budget.ts";

export function createApiMemoryBudget(limitBytes: number): MemoryBudget {
  return createMemoryBudget({
    limitBytes,
    idleBytes: API_IDLE_BYTES,
    refuse: (message) => new AppError("FILE_TOO_LARGE", message),
    // A wait given up with an AppError (a request body's wait limit, its client gone) answers with
    // it.
    cancelled: (reason) =>
      reason instanceof AppError
        ? reason
        : new AppError("SERVICE_UNAVAILABLE", "The analysis was cancelled", { retryable: true, retryAfterSec: 1 }),
  });
}
