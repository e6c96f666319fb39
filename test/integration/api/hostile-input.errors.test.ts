// Hostile inputs against a real `serve` (issue 12): deep nesting in PDFs and JSON bodies,
// bodies past every limit however they are sent, truncations and polyglots. Every answer is a
// 4xx in the error envelope (never a 5xx, never a bare 413), and every process of the service
// stays within its memory bound while they arrive and after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startService, type TestService, uploadDocument } from "../../helpers/service.ts";
import { makeJpeg, makePdf } from "../../helpers/fixtures.ts";
import {
  deeplyNestedArrayPdf,
  deeplyNestedJson,
  deeplyNestedObjectPdf,
  deeplyNestedQPdf,
} from "../../helpers/hostile.ts";
import { mb, serviceMemory } from "../../helpers/process-memory.ts";

/** DOCVERIFY_MEMORY_LIMIT's default: no process of the service may pass it. */
const MEMORY_LIMIT = 1_500_000_000;

let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startService();
  key = await service.createKey("--mode", "test");
});

afterAll(async () => {
  await service?.stop();
});

const expectEnvelope = async (response: Response, status: number, code: string) => {
  const text = await response.text();
  expect({ status: response.status, body: text.slice(0, 300) }).toMatchObject({ status });
  const body = JSON.parse(text);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.error.requestId).toMatch(/^req_[0-9a-f]{16}$/);
  return body;
};

const upload = (bytes: Uint8Array) => uploadDocument(service, key, bytes);

const postJson = (path: string, body: string) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
  });

/** Sends the request head and `bodyBytes` of body over a raw socket; returns what came back once the server closes. */
function rawExchange(head: string, bodyBytes: number, waitMs = 5_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(service.port, "127.0.0.1");
    let text = "";
    let closed = false;
    const done = () => resolve({ text, closed });
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, waitMs);
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      clearTimeout(timer);
      done();
    });
    socket.write(head);
    if (bodyBytes > 0) socket.write(Buffer.alloc(bodyBytes, 0x41));
  });
}

/** The status line's code and the JSON body of a raw HTTP answer (the last one, past any 100 Continue). */
function parseRaw(text: string): { status: number; headers: string; body: { error?: { code?: string } } } {
  const answers = text.split(/(?=HTTP\/1\.1 )/).filter((part) => !part.startsWith("HTTP/1.1 100"));
  const last = answers.at(-1) ?? "";
  const [head = "", body = ""] = last.split("\r\n\r\n");
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    headers: head.toLowerCase(),
    body: body ? JSON.parse(body) : {},
  };
}

describe("deep nesting is refused in the envelope, not answered 500", () => {
  test("a PDF whose content saves the graphics state 100,000 times", async () => {
    await expectEnvelope(await upload(deeplyNestedQPdf()), 422, "UNSUPPORTED_FORMAT");
  });
  test("a PDF whose content holds an array nested 100,000 deep", async () => {
    await expectEnvelope(await upload(deeplyNestedArrayPdf()), 422, "UNSUPPORTED_FORMAT");
  });
  test("a PDF whose page dictionary nests 50,000 levels is judged or refused, never a 5xx", async () => {
    const response = await upload(deeplyNestedObjectPdf());
    expect([200, 422]).toContain(response.status);
    if (response.status === 422) await expectEnvelope(response, 422, "UNSUPPORTED_FORMAT");
  });
  test("a batch body nested 100,000 levels deep", async () => {
    const body = await expectEnvelope(
      await postJson("/api/v1/verify/batch", deeplyNestedJson()),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.error.message).toContain("deeper than");
  });
  test("a verify body nested 100,000 levels deep, and one with brackets only inside strings", async () => {
    await expectEnvelope(
      await postJson("/api/v1/verify", `{"document":${"[".repeat(100_000)}${"]".repeat(100_000)}}`),
      400,
      "VALIDATION_ERROR",
    );
    // Brackets inside a string do not nest: this body is judged on its document, not refused as deep.
    const body = await expectEnvelope(
      await postJson("/api/v1/verify", JSON.stringify({ document: "[".repeat(1000) })),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.error.message).not.toContain("deeper than");
  });
});

describe("bodies past the limit get 422 FILE_TOO_LARGE in the envelope", () => {
  test("20 MB of base64 JSON", async () => {
    const response = await postJson(
      "/api/v1/verify",
      JSON.stringify({ document: Buffer.alloc(15_000_000).toString("base64") }),
    );
    expect(response.headers.get("connection")).toBe("close");
    await expectEnvelope(response, 422, "FILE_TOO_LARGE");
  });

  test("a Content-Length claiming 200 MB, answered before the body is read", async () => {
    const head = `POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n`;
    const { text, closed } = await rawExchange(head, 64 * 1024);
    const answer = parseRaw(text);
    expect(answer.status).toBe(422);
    expect(answer.body.error?.code).toBe("FILE_TOO_LARGE");
    expect(answer.headers).toContain("connection: close");
    expect(closed).toBe(true);
  });

  test("a 50 MB multipart upload sent with Expect: 100-continue", async () => {
    const head = `POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: 52428800\r\nExpect: 100-continue\r\n\r\n`;
    const answer = parseRaw((await rawExchange(head, 0)).text);
    expect(answer.status).toBe(422);
    expect(answer.body.error?.code).toBe("FILE_TOO_LARGE");
    expect(answer.headers).toContain("connection: close");
  });

  test("a chunked body that never declares its length is cut off at the limit", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 30) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${service.url}/api/v1/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectEnvelope(response, 422, "FILE_TOO_LARGE");
  });

  test("a batch body of exactly 4,500,000 bytes", async () => {
    const filler = "A".repeat(4_500_000 - 20);
    const body = `{"documents":["${filler}"]}`.padEnd(4_500_000, " ");
    expect(body.length).toBe(4_500_000);
    await expectEnvelope(await postJson("/api/v1/verify/batch", body), 422, "FILE_TOO_LARGE");
  });
});

describe("truncations and polyglots are refused as what they are", () => {
  test("a JPEG cut in half, a PDF cut before its %%EOF, and a file that is none of the three", async () => {
    const jpeg = await makeJpeg({ width: 320, height: 240 });
    const pdf = makePdf();
    await expectEnvelope(await upload(jpeg.subarray(0, jpeg.length >> 1)), 422, "UNSUPPORTED_FORMAT");
    await expectEnvelope(await upload(pdf.subarray(0, pdf.length - 40)), 422, "UNSUPPORTED_FORMAT");
    await expectEnvelope(
      await upload(new TextEncoder().encode("<html><script>alert(1)</script></html>")),
      422,
      "UNSUPPORTED_FORMAT",
    );
  });
  test("a JPEG with a PDF appended (a polyglot) is judged as the JPEG it starts as, or refused", async () => {
    const polyglot = new Uint8Array([...(await makeJpeg({ width: 320, height: 240 })), ...makePdf()]);
    const response = await upload(polyglot);
    expect(response.status).toBeLessThan(500);
    if (response.status !== 200) await expectEnvelope(response, 422, "UNSUPPORTED_FORMAT");
  });
});

test("every process of the service stayed under the memory limit", () => {
  const processes = serviceMemory(service.process.pid);
  expect(processes.length).toBeGreaterThanOrEqual(2);
  console.log(
    `hostile inputs: ${processes.map((p) => `pid ${p.pid} rss ${mb(p.rss)} MB peak ${mb(p.peak)} MB`).join("; ")}`,
  );
  for (const process of processes) expect(process.peak).toBeLessThan(MEMORY_LIMIT);
});
