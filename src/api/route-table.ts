// Elysia answers an unknown method on a known path with NOT_FOUND; the contract wants 405
// with an Allow header, so we match the path against the registered routes ourselves.
import type { AnyElysia } from "elysia";

const compiled = new WeakMap<AnyElysia, { method: string; pattern: RegExp }[]>();

function routesOf(app: AnyElysia) {
  let routes = compiled.get(app);
  if (!routes) {
    routes = app.routes
      .filter((route) => typeof route.method === "string" && route.method !== "ALL")
      .map((route) => ({
        method: route.method.toUpperCase(),
        pattern: new RegExp(
          `^${route.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`,
        ),
      }));
    compiled.set(app, routes);
  }
  return routes;
}

export function allowedMethods(app: AnyElysia, path: string): string[] {
  const methods = new Set(
    routesOf(app)
      .filter((route) => route.pattern.test(path))
      .map((route) => route.method),
  );
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
