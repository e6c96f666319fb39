// Composition of the HTTP layer: request ids, authentication and rate limiting before any
// body is read, one error envelope for everything, and the resource routes.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { authenticate } from "../keys/authenticate.ts";
import { errorResponse, toAppError } from "./http-errors.ts";
import { contextOf, openContext } from "./request-context.ts";
import { docsRoutes } from "./docs.ts";
import { healthRoutes } from "./health.ts";
import { verifyRoutes } from "./verify.ts";
import { batchRoutes } from "./batches.ts";
import { deliveryRoutes } from "./deliveries.ts";
import { verificationRoutes } from "./verifications.ts";
import { allowedMethods } from "./route-table.ts";
import { LARGEST_BODY } from "./body-limits.ts";
import { RefusalAuditor } from "./audit-refusals.ts";
import { releaseBodyMemory } from "./body-memory.ts";
import type { AppDeps } from "./deps.ts";

const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** A Content-Length no route would read: refused before a byte of the body is taken. */
function declaredTooLarge(request: Request): AppError | undefined {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (!Number.isFinite(declared) || declared <= LARGEST_BODY) return undefined;
  return new AppError("FILE_TOO_LARGE", `The request body exceeds ${LARGEST_BODY} bytes`);
}

/**
 * An answer sent before the request body was read whole (refused early, or cut off at its
 * limit) closes the connection: the rest of the body is never read, so the connection cannot
 * carry another request.
 */
function closingHeaders(request: Request, error: AppError): Record<string, string> {
  const unread = request.body !== null && !request.bodyUsed;
  return unread || error.code === "FILE_TOO_LARGE" ? { connection: "close" } : {};
}

export function createApp(deps: AppDeps) {
  const auditor = new RefusalAuditor(deps.store.audit);
  const auditRefusal = async (request: Request, error: AppError, requestId: string) => {
    try {
      await auditor.record({
        error,
        keyId: contextOf(request)?.key?.id ?? null,
        method: request.method,
        path: new URL(request.url).pathname,
        requestId,
        nowMs: deps.clock.now(),
      });
    } catch (failure) {
      // The refusal is answered whatever happens to its audit row.
      deps.log.error("audit log write failed", {
        requestId,
        error: failure instanceof Error ? failure.message : String(failure),
      });
    }
  };
  // normalize: false, so that a body with extra fields is refused rather than silently
  // trimmed (a request with both `document` and `documentUrl` must be a 400).
  const app = new Elysia({ normalize: false })
    .onRequest(async ({ request, set }) => {
      const context = openContext(request, performance.now());
      set.headers["x-request-id"] = context.requestId;
      if (!isApiPath(new URL(request.url).pathname)) return;
      try {
        if (!deps.accepting())
          throw new AppError("SERVICE_UNAVAILABLE", "The service is shutting down", { retryAfterSec: 5 });
        const authenticated = await authenticate(
          request.headers.get("authorization"),
          deps.store.keys,
          deps.clock.now(),
        );
        context.key = authenticated.record;
        await deps.store.keys.touch(authenticated.keyHash, deps.clock.now(), authenticated.lastUsedAt);
        if (context.key.rateLimitPerSecond !== null) {
          const decision = await deps.rateLimiter.take(
            context.key.id,
            context.key.rateLimitPerSecond,
            deps.clock.now(),
          );
          if (!decision.ok)
            throw new AppError("RATE_LIMITED", "Too many requests for this API key", {
              retryAfterSec: decision.retryAfterSec,
            });
        }
        const tooLarge = declaredTooLarge(request);
        if (tooLarge) throw tooLarge;
      } catch (error) {
        const appError = toAppError("UNKNOWN", error, deps.log, context.requestId);
        await auditRefusal(request, appError, context.requestId);
        return errorResponse(appError, context.requestId, closingHeaders(request, appError));
      }
    })
    .onError(async ({ code, error, request }) => {
      const requestId = contextOf(request)?.requestId ?? "req_unknown";
      let appError = toAppError(code, error, deps.log, requestId);
      const headers: Record<string, string> = {};
      if (appError.code === "NOT_FOUND" && code === "NOT_FOUND") {
        const allowed = allowedMethods(app, new URL(request.url).pathname);
        if (allowed.length > 0 && !allowed.includes(request.method)) {
          appError = new AppError(
            "METHOD_NOT_ALLOWED",
            `${request.method} is not allowed here; use ${allowed.join(", ")}`,
          );
          headers.allow = allowed.join(", ");
        }
      }
      if (isApiPath(new URL(request.url).pathname)) await auditRefusal(request, appError, requestId);
      return errorResponse(appError, requestId, { ...headers, ...closingHeaders(request, appError) });
    })
    .onAfterResponse(({ request, route, set }) => {
      // Runs for every request, answered, refused or abandoned by its client: the body's memory
      // goes back here.
      releaseBodyMemory(request);
      const context = contextOf(request);
      if (!context) return;
      const status = typeof set.status === "number" ? set.status : 200;
      deps.metrics.requestFinished(
        route || "unmatched",
        request.method,
        status,
        (performance.now() - context.startedAt) / 1000,
      );
    })
    .use(docsRoutes())
    .use(healthRoutes(deps))
    .use(verifyRoutes(deps))
    .use(batchRoutes(deps))
    .use(deliveryRoutes(deps))
    .use(verificationRoutes(deps));
  return app;
}
