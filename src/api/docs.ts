// OpenAPI document and a Swagger UI that works air-gapped: the UI's script and styles are
// embedded in the build (swagger-ui-dist) and served here instead of from a CDN.
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
// Bun embeds `type: "file"` imports in compiled executables and gives a readable path
// both from source and from the binary.
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import favicon from "swagger-ui-dist/favicon-32x32.png" with { type: "file" };
import { AppError, ERROR_CODES } from "../errors.ts";
import { FLAG_CLASS_DOCUMENTATION } from "./schemas/verification.ts";
import { WEBHOOK_DOCUMENTATION } from "./schemas/webhook.ts";
import { finishOpenApiDocument } from "./openapi-document.ts";

const ASSETS: Record<string, { path: string; type: string }> = {
  "swagger-ui.css": { path: swaggerCss, type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { path: swaggerBundle, type: "text/javascript; charset=utf-8" },
  "favicon-32x32.png": { path: favicon, type: "image/png" },
};

const DESCRIPTION = `Forgery analysis for identity and financial documents (JPEG, PNG, PDF).

Authenticate with \`Authorization: Bearer <API_KEY>\`. Keys starting \`svc_test_\` run the real analysis in sandbox mode (results carry \`sandbox: true\`, nothing is billed). Create one on the server with \`docverify keys create --mode test\`.

Every error has the body \`{ "error": { "code", "message", "details"?, "requestId" } }\`. Codes: ${ERROR_CODES.map((code) => `\`${code}\``).join(", ")}.

Flags: each is raised by a named detector; \`GET /api/v1/verifications/{id}\` returns the evidence behind them. ${FLAG_CLASS_DOCUMENTATION}`;

export const docsRoutes = () =>
  new Elysia({ name: "docs" })
    // The plugin serves what it generates; integrators get it finished (openapi-document.ts).
    .onAfterHandle({ as: "global" }, ({ path, response }) =>
      path === "/openapi.json" ? finishOpenApiDocument(response) : undefined,
    )
    .use(
      openapi({
        path: "/docs",
        specPath: "/openapi.json",
        provider: "swagger-ui",
        swagger: {
          cdn: "/docs/assets/swagger-ui-bundle.js",
          theme: "/docs/assets/swagger-ui.css",
          autoDarkMode: false,
          persistAuthorization: true,
        },
        exclude: { paths: [/^\/docs/, "/openapi.json"] },
        documentation: {
          info: { title: "docverify", version: "1.0.0", description: DESCRIPTION },
          tags: [
            { name: "Verification", description: "Single-document analysis" },
            { name: "Batches", description: "Asynchronous batches with signed webhooks" },
            { name: "Operations", description: "Health, readiness and metrics (no key needed)" },
          ],
          webhooks: WEBHOOK_DOCUMENTATION,
          components: {
            securitySchemes: {
              bearerAuth: { type: "http", scheme: "bearer", description: "An API key: svc_test_… or svc_live_…" },
            },
          },
        },
      }),
    )
    .get(
      "/docs/assets/:name",
      ({ params }) => {
        const asset = ASSETS[params.name];
        if (!asset) throw new AppError("NOT_FOUND", "No such asset");
        return new Response(Bun.file(asset.path), {
          headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" },
        });
      },
      { detail: { hide: true } },
    );
