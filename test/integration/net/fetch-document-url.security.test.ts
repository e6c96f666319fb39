import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type AppError, isAppError } from "../../../src/errors.ts";
import { fetchDocumentUrl } from "../../../src/intake/fetch-url.ts";
import { rejection } from "./requests.ts";
import { startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.stop());

const refusal = (url: string): Promise<AppError> =>
  rejection(fetchDocumentUrl(url, { allowPrivate: false, ca: server.tls.caPem }), isAppError);

describe("fetchDocumentUrl with private URLs not allowed", () => {
  test("refuses a host name resolving to loopback with FETCH_FAILED, not revealing the address", async () => {
    const before = server.seen.length;
    const error = await refusal(`https://localhost:${server.port}/png/8`);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toBe(
      "documentUrl could not be fetched: its host resolves to an address that may not be reached",
    );
    expect(error.message).not.toContain("127.0.0.1");
    expect(error.details).toEqual({ reason: "refused_address" });
    expect(server.seen.length).toBe(before);
  });

  test("refuses numeric spellings of loopback", async () => {
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "[::ffff:127.0.0.1]", "[::1]"]) {
      const error = await refusal(`https://${host}:${server.port}/png/8`);
      expect({ host, reason: (error.details as { reason: string }).reason }).toEqual({
        host,
        reason: "refused_address",
      });
    }
  });
});
