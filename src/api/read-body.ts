// Bodies are read by us, under a byte ceiling, before anything parses them: a client
// cannot make the service buffer more than the contract allows. The reader also leaves a
// digest of the body on the request context, for idempotency keys to compare requests by
// (only when the request carries one).
import { createHash } from "node:crypto";
import { AppError } from "../errors.ts";
import { readLimited } from "../intake/read-limited.ts";
import { assertJsonDepth } from "../intake/json-depth.ts";
import { contextOf } from "./request-context.ts";
import { IDEMPOTENCY_HEADER } from "./idempotency.ts";

/** Length-prefixed, so no two different sequences of parts hash alike. */
function updateWithPart(hash: ReturnType<typeof createHash>, part: string | Uint8Array): void {
  const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
  hash.update(`${bytes.length}:`).update(bytes);
}

/**
 * A multipart body is digested by its fields (names, file names, media types, contents),
 * not its bytes: clients draw a fresh random boundary for every send of the same request.
 */
async function digestFields(fields: Record<string, unknown>): Promise<string> {
  const hash = createHash("sha256").update("multipart\n");
  for (const name of Object.keys(fields).sort()) {
    const value = fields[name];
    updateWithPart(hash, name);
    if (value instanceof Blob) {
      updateWithPart(hash, "file");
      updateWithPart(hash, value instanceof File ? value.name : "");
      updateWithPart(hash, value.type);
      updateWithPart(hash, new Uint8Array(await value.arrayBuffer()));
    } else {
      updateWithPart(hash, "text");
      updateWithPart(hash, String(value));
    }
  }
  return hash.digest("hex");
}

/** Returns the JSON value, or the multipart fields as an object (a repeated field is an error). */
export async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  // Lower-cased for matching only: a multipart boundary is case-sensitive.
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.toLowerCase();
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new AppError("FILE_TOO_LARGE", `The request body exceeds ${maxBytes} bytes`);
  const bytes = request.body ? await readLimited(request.body, maxBytes) : new Uint8Array();
  // Only a request with an Idempotency-Key is compared by its body: no digest otherwise.
  const context = request.headers.has(IDEMPOTENCY_HEADER) ? contextOf(request) : undefined;

  if (mediaType.startsWith("application/json")) {
    if (context) context.bodyDigest = createHash("sha256").update("json\n").update(bytes).digest("hex");
    assertJsonDepth(bytes);
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new AppError("VALIDATION_ERROR", "The request body is not valid JSON");
    }
  }
  if (mediaType.startsWith("multipart/form-data")) {
    let form: Awaited<ReturnType<Response["formData"]>>;
    try {
      form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
    } catch {
      throw new AppError("VALIDATION_ERROR", "The multipart body could not be parsed");
    }
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) {
      if (name in fields) throw new AppError("VALIDATION_ERROR", `The multipart field "${name}" is repeated`);
      fields[name] = value;
    }
    if (context) context.bodyDigest = await digestFields(fields);
    return fields;
  }
  throw new AppError("VALIDATION_ERROR", "Content-Type must be application/json or multipart/form-data");
}
