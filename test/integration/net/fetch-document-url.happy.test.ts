import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchDocumentUrl } from "../../../src/intake/fetch-url.ts";
import { validateDocument } from "../../../src/intake/validate.ts";
import { pngOf, startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.stop());

const fetchFrom = (path: string) =>
  fetchDocumentUrl(`${server.url}${path}`, { allowPrivate: true, ca: server.tls.caPem });

describe("fetchDocumentUrl", () => {
  test("fetches a PNG over HTTPS that intake then accepts", async () => {
    const bytes = await fetchFrom("/png/64");
    expect(bytes).toEqual(new Uint8Array(await pngOf(64)));
    expect((await validateDocument(bytes)).format).toBe("png");
  });

  test("follows up to 3 redirects", async () => {
    expect(new TextDecoder().decode(await fetchFrom("/hops/3"))).toBe("arrived");
  });

  test("accepts a document of exactly 10,000,000 bytes, declared or streamed", async () => {
    expect((await fetchFrom("/bytes/10000000")).byteLength).toBe(10_000_000);
    expect((await fetchFrom("/stream/10000000?pause=0")).byteLength).toBe(10_000_000);
  });
});
