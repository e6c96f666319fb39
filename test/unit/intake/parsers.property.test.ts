// Property-based tests (fast-check) of everything that reads bytes or text a client sent:
// whatever arrives, each reader returns what the contract says or refuses with one of the
// API's own errors, and never throws anything else, hangs, or reads past its limit.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type AppError, isAppError } from "../../../src/errors.ts";
import { decodeBase64Document } from "../../../src/intake/base64.ts";
import { jsonDepth, assertJsonDepth, MAX_JSON_DEPTH } from "../../../src/intake/json-depth.ts";
import { readLimited } from "../../../src/intake/read-limited.ts";
import { sniffFormat } from "../../../src/intake/sniff.ts";
import { countJpegStructure } from "../../../src/intake/jpeg-structure.ts";
import { checkPngChunks } from "../../../src/intake/png-chunks.ts";
import { readBody } from "../../../src/api/read-body.ts";

const RUNS = { numRuns: 300 };

/** Runs `fn`; an AppError with one of `codes` is an allowed refusal, anything else thrown fails. */
async function refusesOnlyWith<T>(codes: string[], fn: () => T | Promise<T>): Promise<T | AppError> {
  try {
    return await fn();
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(codes).toContain(error.code);
    return error;
  }
}

const depthOf = (value: unknown): number =>
  value !== null && typeof value === "object" ? 1 + Math.max(0, ...Object.values(value as object).map(depthOf)) : 0;

const stream = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

describe("JSON depth scan", () => {
  test("agrees with the nesting of every JSON value, however it is printed", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(jsonDepth(new TextEncoder().encode(text))).toBe(depthOf(value));
      }),
      RUNS,
    );
  });

  test("brackets inside strings never nest, escaped quotes included", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("[", "{", "]", "}", '"', "\\", "a") }), (text) => {
        expect(jsonDepth(new TextEncoder().encode(JSON.stringify({ document: text })))).toBe(1);
      }),
      RUNS,
    );
  });

  test("any bytes are scanned without throwing, and a refusal is VALIDATION_ERROR past the limit only", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        const depth = jsonDepth(bytes);
        const outcome = await refusesOnlyWith(["VALIDATION_ERROR"], () => assertJsonDepth(bytes));
        expect(isAppError(outcome)).toBe(depth > MAX_JSON_DEPTH);
      }),
      RUNS,
    );
  });
});

describe("base64 and data-URL reader", () => {
  const encodings = fc.record({
    dataUrl: fc.boolean(),
    dropPadding: fc.boolean(),
    lineBreaks: fc.boolean(),
    mime: fc.constantFrom("image/png", "application/pdf", "", "text/plain;charset=utf-8"),
  });

  test("decodes exactly what was encoded, in every way senders encode it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 600 }), encodings, (bytes, how) => {
        let text = Buffer.from(bytes).toString("base64");
        if (how.dropPadding) text = text.replace(/=+$/, "");
        if (how.lineBreaks) text = text.replace(/(.{76})/g, "$1\r\n");
        if (how.dataUrl) text = `data:${how.mime}${how.mime ? ";" : ""}base64,${text}`;
        expect(Buffer.from(decodeBase64Document(text, 10_000)).equals(Buffer.from(bytes))).toBe(true);
      }),
      RUNS,
    );
  });

  test("refuses more decoded bytes than the limit with FILE_TOO_LARGE, before decoding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 50 }), (limit, extra) => {
        const text = Buffer.alloc(limit + extra, 7).toString("base64");
        const outcome = (() => {
          try {
            return decodeBase64Document(text, limit);
          } catch (error) {
            return error;
          }
        })();
        expect(isAppError(outcome) && outcome.code).toBe("FILE_TOO_LARGE");
      }),
      RUNS,
    );
  });

  test("any text is decoded or refused with the API's own codes, never anything else", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: fc.constantFrom(..."data:;,base64=+/AZaz09 \n%"), maxLength: 200 }),
        ),
        async (text) => {
          await refusesOnlyWith(["VALIDATION_ERROR", "FILE_TOO_LARGE"], () => decodeBase64Document(text, 100));
        },
      ),
      RUNS,
    );
  });
});

describe("byte readers of documents", () => {
  test("the sniffer judges any bytes without throwing, by the first bytes only", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          [0xff, 0xd8, 0xff],
          [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
          [],
          [0x25, 0x50, 0x44, 0x46, 0x2d],
        ),
        fc.uint8Array({ maxLength: 256 }),
        (magic, rest) => {
          const format = sniffFormat(new Uint8Array([...magic, ...rest]));
          if (magic.length === 3) expect(format).toBe("jpeg");
          if (magic.length === 8) expect(format).toBe("png");
          if (magic.length === 5) expect(format).toBe("pdf");
        },
      ),
      RUNS,
    );
  });

  test("the JPEG marker walk and the PNG chunk walk end on any bytes, refusing only with FILE_TOO_LARGE", async () => {
    const jpegish = fc.uint8Array({ maxLength: 2048 }).map((rest) => new Uint8Array([0xff, 0xd8, ...rest]));
    const pngish = fc
      .uint8Array({ maxLength: 2048 })
      .map((rest) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...rest]));
    // Marker-rich bytes reach the scan and segment paths far more often than uniform ones.
    const markers = fc
      .array(fc.oneof(fc.constantFrom(0xff, 0xda, 0xe2, 0xfe, 0x00, 0xd9, 0xd0), fc.integer({ min: 0, max: 255 })), {
        maxLength: 2048,
      })
      .map((rest) => new Uint8Array([0xff, 0xd8, ...rest]));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jpegish, markers),
        async (bytes) => void (await refusesOnlyWith(["FILE_TOO_LARGE"], () => countJpegStructure(bytes))),
      ),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        pngish,
        async (bytes) => void (await refusesOnlyWith(["FILE_TOO_LARGE"], () => checkPngChunks(bytes))),
      ),
      RUNS,
    );
  });

  test("the scan count is the number of SOS markers outside entropy-coded data", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.uint8Array({ maxLength: 64 }).map((data) => data.map((b) => (b === 0xff ? 0xfe : b))),
          { maxLength: 80 },
        ),
        (scans) => {
          const sos = [0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 63, 0];
          const bytes = new Uint8Array([0xff, 0xd8, ...scans.flatMap((data) => [...sos, ...data]), 0xff, 0xd9]);
          const outcome = (() => {
            try {
              return countJpegStructure(bytes).scans;
            } catch (error) {
              return (error as AppError).code;
            }
          })();
          expect(outcome).toBe(scans.length > 64 ? "FILE_TOO_LARGE" : scans.length);
        },
      ),
      RUNS,
    );
  });

  test("the limited reader returns every chunking of a body whole, or refuses past the limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 800 }),
        async (chunks, limit) => {
          const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
          const outcome = await refusesOnlyWith(["FILE_TOO_LARGE"], () => readLimited(stream(chunks), limit));
          if (total > limit) expect(isAppError(outcome)).toBe(true);
          else expect(Buffer.from(outcome as Uint8Array).equals(Buffer.concat(chunks))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

describe("request body reader", () => {
  const request = (body: BodyInit, contentType: string) =>
    new Request("http://localhost/api/v1/verify", { method: "POST", body, headers: { "content-type": contentType } });

  test("a multipart document comes back byte for byte, whatever its name, type and boundary", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom("image/jpeg", "application/pdf", "application/octet-stream", ""),
        async (bytes, name, type) => {
          const form = new FormData();
          form.append("document", new File([bytes], name || "document", { type }));
          const framed = new Request("http://localhost/", { method: "POST", body: form });
          const contentType = framed.headers.get("content-type") ?? "";
          expect(contentType).toStartWith("multipart/form-data; boundary=");
          const fields = (await readBody(request(await framed.arrayBuffer(), contentType), 10_000)) as Record<
            string,
            unknown
          >;
          expect(Object.keys(fields)).toEqual(["document"]);
          expect(Buffer.from(await (fields.document as Blob).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  test("any body under any declared type is read or refused with VALIDATION_ERROR or FILE_TOO_LARGE", async () => {
    const contentTypes = fc.constantFrom(
      "application/json",
      "multipart/form-data; boundary=XyZ",
      "multipart/form-data",
      "text/plain",
      "application/json; charset=utf-8",
    );
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      fc.string({ maxLength: 400 }).map((text) => new TextEncoder().encode(text)),
      fc
        .array(
          fc.constantFrom(
            "--XyZ\r\n",
            'Content-Disposition: form-data; name="document"',
            '; filename="a"',
            "\r\n\r\n",
            "data",
            "--XyZ--",
            "\r\n",
            "[",
            "{",
          ),
          { maxLength: 30 },
        )
        .map((parts) => new TextEncoder().encode(parts.join(""))),
    );
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, fc.integer({ min: 0, max: 700 }), async (body, contentType, limit) => {
        const outcome = await refusesOnlyWith(["VALIDATION_ERROR", "FILE_TOO_LARGE"], () =>
          readBody(request(body, contentType), limit),
        );
        if (body.length > limit) expect(isAppError(outcome) && outcome.code).toBe("FILE_TOO_LARGE");
      }),
      RUNS,
    );
  });
});
