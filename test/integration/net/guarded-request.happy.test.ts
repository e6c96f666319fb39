import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectSuccess, guardedRequest, WEBHOOK_REQUEST } from "../../../src/net/guarded-request.ts";
import type { GuardedRequestOptions } from "../../../src/net/guarded-request.ts";
import { requestOptions } from "./requests.ts";
import { startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.stop());

const request = (path: string, overrides: Partial<GuardedRequestOptions> = {}) =>
  guardedRequest(requestOptions(server, { url: `${server.url}${path}`, ...overrides }));

const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe("guardedRequest", () => {
  test("gets a status, headers and body from an HTTPS server it verifies with the given CA", async () => {
    const response = await request("/ok");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toStartWith("text/plain");
    expect(text(response.body)).toBe("hello");
    expect(response.url.href).toBe(`${server.url}/ok`);
  });

  test("posts a body with its headers", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ event: "verification.completed" }));
    const response = await request("/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature": "sha256=abc" },
      body,
    });
    expect(JSON.parse(text(response.body))).toMatchObject({
      method: "POST",
      bytes: body.byteLength,
      contentType: "application/json",
      signature: "sha256=abc",
      host: `127.0.0.1:${server.port}`,
    });
  });

  test("delivers with the webhook settings: the receiver's status counts, its body is not read", async () => {
    const before = server.seen.length;
    const delivered = await request("/bytes/1000000", { ...WEBHOOK_REQUEST, body: new Uint8Array(10) });
    expect({ status: delivered.status, bytes: delivered.body.byteLength }).toEqual({ status: 200, bytes: 0 });
    const refused = await request("/status/500", { ...WEBHOOK_REQUEST, body: new Uint8Array(10) });
    expect(() => expectSuccess(refused)).toThrow(expect.objectContaining({ kind: "bad_status", retryable: true }));
    expect(server.seen.slice(before)).toEqual(["/bytes/1000000", "/status/500"]);
  });

  test("follows a chain of exactly maxRedirects redirects and reports where it ended", async () => {
    const response = await request("/hops/3");
    expect(text(response.body)).toBe("arrived");
    expect(response.url.pathname).toBe("/hops/0");
  });

  test("follows a relative Location", async () => {
    const response = await request(`/redirect?to=${encodeURIComponent("/ok")}&status=307`);
    expect(text(response.body)).toBe("hello");
  });

  test("continues a POST answered with 303 as a GET without the body", async () => {
    const response = await request(`/redirect?to=${encodeURIComponent("/echo")}&status=303`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new TextEncoder().encode("{}"),
    });
    expect(JSON.parse(text(response.body))).toMatchObject({ method: "GET", bytes: 0, contentType: null });
  });

  test("keeps a POST and its body through a 307", async () => {
    const response = await request(`/redirect?to=${encodeURIComponent("/echo")}&status=307`, {
      method: "POST",
      body: new Uint8Array(5),
    });
    expect(JSON.parse(text(response.body))).toMatchObject({ method: "POST", bytes: 5 });
  });

  test("returns a non-2xx answer for the caller to judge, with expectSuccess to turn it into an error", async () => {
    const notFound = await request("/status/404");
    expect(notFound.status).toBe(404);
    expect(() => expectSuccess(notFound)).toThrow(
      expect.objectContaining({ kind: "bad_status", status: 404, retryable: false }),
    );
    const unavailable = await request("/status/503");
    expect(() => expectSuccess(unavailable)).toThrow(
      expect.objectContaining({ kind: "bad_status", status: 503, retryable: true }),
    );
    expect(expectSuccess(await request("/status/204")).status).toBe(204);
  });

  test("accepts an answer of exactly maxResponseBytes, declared or streamed", async () => {
    expect((await request("/bytes/10000")).body.byteLength).toBe(10_000);
    expect((await request("/stream/10000")).body.byteLength).toBe(10_000);
  });

  test("reaches a loopback host by name when private addresses are allowed", async () => {
    const response = await request("/ok", { url: `https://localhost:${server.port}/ok` });
    expect(text(response.body)).toBe("hello");
  });
});
