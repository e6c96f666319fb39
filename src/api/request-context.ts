// Per-request facts set before routing (request id, the authenticated key) so route
// handlers and the error handler can read them without Elysia's context in services.
import { randomBytes } from "node:crypto";
import { AppError } from "../errors.ts";
import type { ApiKeyRecord } from "../store/keys.ts";
import type { MemoryHold } from "../limits/memory-budget.ts";

export interface RequestContext {
  requestId: string;
  startedAt: number;
  key?: ApiKeyRecord;
  /** SHA-256 of the request body in a form that survives re-sending (see read-body.ts). */
  bodyDigest?: string;
  /**
   * The request body's share of the memory budget (body-memory.ts), held until the answer is sent.
   */
  bodyMemory?: MemoryHold;
}

const contexts = new WeakMap<Request, RequestContext>();

export function openContext(request: Request, startedAt: number): RequestContext {
  const context = { requestId: `req_${randomBytes(8).toString("hex")}`, startedAt };
  contexts.set(request, context);
  return context;
}

export const contextOf = (request: Request): RequestContext | undefined => contexts.get(request);

export function keyOf(request: Request): ApiKeyRecord {
  const key = contexts.get(request)?.key;
  if (!key) throw new AppError("UNAUTHORIZED", "Missing API key");
  return key;
}
