// The last touches on the OpenAPI document the plugin generates from the routes, so that
// integrators' tools (Redocly's recommended rules, openapi-typescript) accept it as it is:
// a server, OpenAPI 3.1 tuples, no TypeBox-only keywords, each status described by the error
// codes it carries, and the response headers a schema cannot express.
import { ERROR_CODES } from "../errors.ts";
import { codeToStatus } from "./http-errors.ts";
import { REPLAYED_RESPONSE_HEADER } from "./schemas/idempotency.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * TypeBox writes a tuple as `items: [...]` with `additionalItems`, which 3.1 replaced by
 * `prefixItems`; and Elysia's `error` keyword (a custom validation message) is no JSON Schema.
 */
function toJsonSchema2020(node: Json): void {
  if (Array.isArray(node)) {
    node.forEach(toJsonSchema2020);
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.error === "string") delete node.error;
  if (Array.isArray(node.items)) {
    node.prefixItems = node.items;
    if (node.additionalItems === false) node.items = false;
    else delete node.items;
    delete node.additionalItems;
  }
  Object.values(node).forEach(toJsonSchema2020);
}

const STATUS_TEXT: Record<string, string> = { "200": "OK", "202": "Accepted", "503": "Service unavailable" };

/** "Codes: RATE_LIMITED, CAP_EXCEEDED", from the one mapping of codes to statuses. */
function describeStatus(status: string): string | undefined {
  const codes = ERROR_CODES.filter((code) => String(codeToStatus[code]) === status);
  if (codes.length === 0) return STATUS_TEXT[status];
  return `Error; \`error.code\` is one of ${codes.map((code) => `\`${code}\``).join(", ")} (see the error codes in the description above).`;
}

const RETRY_AFTER_HEADER = {
  description: "Seconds to wait before trying again.",
  schema: { type: "integer", minimum: 1 },
  example: 1,
};

function finishResponses(path: string, operation: JsonObject): void {
  const responses = operation.responses;
  if (!isObject(responses)) return;
  const takesKey =
    Array.isArray(operation.parameters) &&
    operation.parameters.some((parameter) => isObject(parameter) && parameter.name === "Idempotency-Key");
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    const description = describeStatus(status);
    if (
      description &&
      (typeof response.description !== "string" || response.description.startsWith("Response for status"))
    )
      response.description = description;
    const headers: JsonObject = isObject(response.headers) ? response.headers : {};
    if (["409", "429", "503"].includes(status) && path.startsWith("/api/")) headers["Retry-After"] = RETRY_AFTER_HEADER;
    if (takesKey && /^(2\d\d|400|422)$/.test(status)) headers["Idempotent-Replayed"] = REPLAYED_RESPONSE_HEADER;
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
}

/** Finished copies by generated document: the plugin caches its document, so this is done once. */
const finished = new WeakMap<object, JsonObject>();

/** Returns a finished copy; the generated document (the plugin caches it) is left as it is. */
export function finishOpenApiDocument(generated: unknown): JsonObject {
  if (typeof generated !== "object" || generated === null) return finish(generated);
  const cached = finished.get(generated);
  if (cached) return cached;
  const document = finish(generated);
  finished.set(generated, document);
  return document;
}

function finish(generated: unknown): JsonObject {
  const document = JSON.parse(JSON.stringify(generated)) as JsonObject;
  // Relative: the document is served by the service it describes, wherever it is deployed.
  document.servers = [{ url: "/", description: "This docverify service (the host that serves this document)" }];
  for (const section of ["paths", "webhooks"] as const) {
    const entries = document[section];
    if (!isObject(entries)) continue;
    for (const [path, item] of Object.entries(entries)) {
      if (!isObject(item)) continue;
      for (const operation of Object.values(item)) if (isObject(operation)) finishResponses(path, operation);
    }
  }
  toJsonSchema2020(document.paths ?? null);
  toJsonSchema2020(document.webhooks ?? null);
  toJsonSchema2020(document.components ?? null);
  return document;
}
