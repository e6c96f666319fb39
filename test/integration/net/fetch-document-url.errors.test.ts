import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { type AppError, isAppError } from "../../../src/errors.ts";
import { fetchDocumentUrl } from "../../../src/intake/fetch-url.ts";
import type { FetchDocumentOptions } from "../../../src/intake/fetch-url.ts";
import { rejection } from "./requests.ts";
import { startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.stop());

const refusal = (url: string, options: Partial<FetchDocumentOptions> = {}): Promise<AppError> =>
  rejection(fetchDocumentUrl(url, { allowPrivate: true, ca: server.tls.caPem, ...options }), isAppError);

describe("fetchDocumentUrl refuses", () => {
  test("a documentUrl that is not HTTPS with VALIDATION_ERROR, without fetching it", async () => {
    const error = await refusal(`http://127.0.0.1:${server.port}/ok`);
    expect({ code: error.code, message: error.message }).toEqual({
      code: "VALIDATION_ERROR",
      message: "documentUrl must use https",
    });
  });

  test("a non-2xx answer with FETCH_FAILED naming the status, never echoing the body", async () => {
    const error = await refusal(`${server.url}/status/404`);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toBe("documentUrl could not be fetched: its host answered HTTP 404");
    expect(error.message).not.toContain("status body");
    expect(error.details).toEqual({ reason: "bad_status", status: 404 });
    expect((await refusal(`${server.url}/status/503`)).retryable).toBe(true);
  });

  test("a fourth redirect with FETCH_FAILED", async () => {
    const error = await refusal(`${server.url}/hops/4`);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toBe("documentUrl could not be fetched: it redirected more than 3 times");
  });

  test("a redirect to plain http with FETCH_FAILED", async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${server.port}/ok`);
    const error = await refusal(`${server.url}/redirect?to=${to}`);
    expect({ code: error.code, details: error.details }).toEqual({
      code: "FETCH_FAILED",
      details: { reason: "bad_redirect" },
    });
  });

  test("a document one byte over 10,000,000 with FILE_TOO_LARGE, declared or streamed", async () => {
    expect((await refusal(`${server.url}/bytes/10000001`)).code).toBe("FILE_TOO_LARGE");
    expect((await refusal(`${server.url}/stream/10000001?pause=0`)).code).toBe("FILE_TOO_LARGE");
  });

  test("an unresolvable host with FETCH_FAILED saying so", async () => {
    const error = await refusal("https://no-such-host.invalid/a.pdf");
    expect(error.message).toBe("documentUrl could not be fetched: its host name could not be resolved");
  });

  test("a certificate it cannot verify with FETCH_FAILED saying so", async () => {
    const error = await refusal(`${server.url}/ok`, { ca: undefined });
    expect({ code: error.code, message: error.message, retryable: error.retryable }).toEqual({
      code: "FETCH_FAILED",
      message: "documentUrl could not be fetched: the TLS certificate of its host could not be verified",
      retryable: false,
    });
  });

  test("a closed port with a retryable FETCH_FAILED", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(`https://127.0.0.1:${port}/a.pdf`);
    expect({
      code: error.code,
      reason: (error.details as { reason: string }).reason,
      retryable: error.retryable,
    }).toEqual({
      code: "FETCH_FAILED",
      reason: "connect",
      retryable: true,
    });
  });
});
