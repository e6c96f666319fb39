import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import tls from "node:tls";
import { WEBHOOK_REQUEST } from "../../../src/net/guarded-request.ts";
import type { GuardedRequestOptions } from "../../../src/net/guarded-request.ts";
import { requestFailure, requestOptions } from "./requests.ts";
import { startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.stop());

const failure = (overrides: Partial<GuardedRequestOptions>) => requestFailure(requestOptions(server, overrides));

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

describe("guardedRequest fails with a typed NetError", () => {
  test("too_many_redirects when a chain is one hop longer than maxRedirects", async () => {
    const error = await failure({ url: `${server.url}/hops/4` });
    expect(error).toMatchObject({ kind: "too_many_redirects", status: 302, retryable: false });
  });

  test("too_many_redirects on any redirect when maxRedirects is 0, as for webhooks", async () => {
    const before = server.seen.length;
    const error = await failure({ ...WEBHOOK_REQUEST, url: `${server.url}/hops/1`, body: new Uint8Array(1) });
    expect(error).toMatchObject({ kind: "too_many_redirects", status: 302 });
    expect(server.seen.slice(before)).toEqual(["/hops/1"]);
  });

  test("bad_redirect when a redirect leads to plain http, without following it", async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${server.port}/ok`);
    const error = await failure({ url: `${server.url}/redirect?to=${to}` });
    expect(error).toMatchObject({ kind: "bad_redirect", retryable: false });
    expect(error.message).toBe("redirect target must use https");
  });

  test("bad_redirect when a redirect carries credentials", async () => {
    const to = encodeURIComponent(`https://user:pw@127.0.0.1:${server.port}/ok`);
    expect(await failure({ url: `${server.url}/redirect?to=${to}` })).toMatchObject({ kind: "bad_redirect" });
  });

  test("bad_url for a URL that is not https", async () => {
    expect(await failure({ url: `http://127.0.0.1:${server.port}/ok` })).toMatchObject({ kind: "bad_url" });
    expect(await failure({ url: "not a url" })).toMatchObject({ kind: "bad_url" });
  });

  test("too_large from a declared Content-Length, before reading the body", async () => {
    expect(await failure({ url: `${server.url}/bytes/10001` })).toMatchObject({ kind: "too_large", retryable: false });
  });

  test("too_large while streaming an answer with no Content-Length, stopping early", async () => {
    // 5 MB at 16 kB per 5 ms would take over 1.5 s to send whole.
    const started = performance.now();
    expect(await failure({ url: `${server.url}/stream/5000000` })).toMatchObject({ kind: "too_large" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("timeout when the whole exchange outlasts totalTimeoutMs", async () => {
    const started = performance.now();
    const error = await failure({ url: `${server.url}/slow/3000`, totalTimeoutMs: 300 });
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  test("timeout when a peer accepts TCP but never completes the TLS handshake", async () => {
    const silent = net.createServer(() => {});
    const port = await listen(silent);
    try {
      const started = performance.now();
      const error = await failure({ url: `https://127.0.0.1:${port}/`, connectTimeoutMs: 300 });
      expect(error).toMatchObject({ kind: "timeout", retryable: true });
      expect(error.message).toBe("no connection within 300 ms");
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      silent.close();
    }
  });

  test("connect, retryable, when nothing listens on the port", async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await failure({ url: `https://127.0.0.1:${port}/` })).toMatchObject({ kind: "connect", retryable: true });
  });

  test("dns when the host name does not resolve", async () => {
    expect(await failure({ url: "https://no-such-host.invalid/" })).toMatchObject({ kind: "dns" });
  });

  test("protocol when the answer breaks off before its declared length", async () => {
    const liar = tls.createServer({ cert: server.tls.certPem, key: server.tls.keyPem }, (socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\nonly this"));
    });
    const port = await listen(liar);
    try {
      expect(await failure({ url: `https://127.0.0.1:${port}/` })).toMatchObject({ kind: "protocol", retryable: true });
    } finally {
      liar.close();
    }
  });
});
