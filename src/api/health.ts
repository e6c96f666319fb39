import { Elysia, t } from "elysia";
import type { AppDeps } from "./deps.ts";

const Check = t.Object({ ok: t.Boolean(), detail: t.Optional(t.String()) });

export const healthRoutes = (deps: AppDeps) =>
  new Elysia({ name: "health" })
    .get("/healthz", () => ({ status: "ok" as const }), {
      response: { 200: t.Object({ status: t.Literal("ok") }) },
      detail: {
        operationId: "getHealthz",
        summary: "Liveness: the process answers",
        tags: ["Operations"],
        security: [],
      },
    })
    .get(
      "/readyz",
      async ({ set }) => {
        const readiness = await deps.readiness();
        set.status = readiness.ready ? 200 : 503;
        return { status: readiness.ready ? ("ready" as const) : ("not_ready" as const), checks: readiness.checks };
      },
      {
        response: {
          200: t.Object({ status: t.Literal("ready"), checks: t.Record(t.String(), Check) }),
          503: t.Object({ status: t.Literal("not_ready"), checks: t.Record(t.String(), Check) }),
        },
        detail: {
          operationId: "getReadyz",
          summary: "Readiness: the store and the analyser answer",
          tags: ["Operations"],
          security: [],
        },
      },
    )
    .get(
      "/metrics",
      async () =>
        new Response(await deps.metrics.registry.metrics(), {
          headers: { "content-type": deps.metrics.registry.contentType },
        }),
      { detail: { operationId: "getMetrics", summary: "Prometheus metrics", tags: ["Operations"], security: [] } },
    );
