// What the wire carries for `Expect: 100-continue` with a body past every limit, through the
// same Bun.serve and Elysia the service listens with. Bun 1.4.5 (its uWS HTTP layer) writes
// `100 Continue` as soon as it has parsed the head, before any handler of ours runs, and no
// server option turns that off (maxRequestBodySize does not either: Bun then sends 100 and its
// own bare 413). So the client is told to send the body, and our answer follows at once: 422
// FILE_TOO_LARGE in the envelope with `Connection: close`, and the connection is closed
// without reading the body. README "Limits" says so; should Bun stop sending the 100 for such
// a request, the first test fails and the README line goes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { SERVER_BODY_CEILING } from "../../../src/api/body-limits.ts";
import { startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";

let service: InProcessApp;
let key: string;
let port: number;

beforeAll(async () => {
  service = await startInProcessApp();
  key = await service.createKey({ mode: "test" });
  service.app.listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: SERVER_BODY_CEILING });
  port = service.app.server!.port!;
});

afterAll(async () => {
  await service?.app.stop(true);
  await service?.close();
});

/**
 * Sends `head` and no body (as a client waiting for 100 Continue does); what came back and whether
 * the server closed.
 */
function exchange(head: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    let text = "";
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("end", () => (closed = true));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closed });
    });
  });
}

const head = (extra: string) =>
  `POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: 52428800\r\n${extra}\r\n`;

/** The final answer of a raw exchange: past any interim 1xx. */
function finalAnswer(text: string) {
  const last = text.split(/(?=HTTP\/1\.1 )/).at(-1) ?? "";
  const [answerHead = "", body = ""] = last.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answerHead)?.[1]), head: answerHead.toLowerCase(), body };
}

describe("Expect: 100-continue with a Content-Length past every limit", () => {
  test("Bun sends 100 Continue first (it cannot be turned off); the answer is still the 422 envelope, closing", async () => {
    const { text, closed } = await exchange(head("Expect: 100-continue\r\n"));
    expect(text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    const answer = finalAnswer(text);
    expect(answer.status).toBe(422);
    expect(answer.head).toContain("connection: close");
    expect(JSON.parse(answer.body).error.code).toBe("FILE_TOO_LARGE");
    expect(closed).toBe(true);
  });

  test("without Expect there is no interim answer: the 422 envelope alone, closing", async () => {
    const { text, closed } = await exchange(head(""));
    expect(text.startsWith("HTTP/1.1 422 ")).toBe(true);
    expect(finalAnswer(text).head).toContain("connection: close");
    expect(JSON.parse(finalAnswer(text).body).error.code).toBe("FILE_TOO_LARGE");
    expect(closed).toBe(true);
  });
});
