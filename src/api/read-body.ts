// Bodies are read by us, under a byte ceiling, before anything parses them: a client
// cannot make the service buffer more than the contract allows.
import { AppError } from "../errors";
import { readLimited } from "../intake/read-limited";

/** Returns the JSON value, or the multipart fields as an object (a repeated field is an error). */
export async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  // Lower-cased for matching only: a multipart boundary is case-sensitive.
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.toLowerCase();
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError("FILE_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);
  const bytes = request.body ? await readLimited(request.body, maxBytes) : new Uint8Array();

  if (mediaType.startsWith("application/json")) {
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
    return fields;
  }
  throw new AppError("VALIDATION_ERROR", "Content-Type must be application/json or multipart/form-data");
}
