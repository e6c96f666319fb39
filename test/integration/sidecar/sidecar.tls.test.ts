// Remote sidecars over mutual TLS: the client verifies the sidecar against a CA and presents a
// certificate of its own, and the sidecar turns away clients without one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../../src/log.ts";
import { createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { type SidecarServer, startSidecarServer } from "../../../sidecar/server/server.ts";
import { makeTestCa } from "../../helpers/tls.ts";
import { PAGE_TEXT, readText, textPdf } from "./fixtures.ts";

const log = createLogger("error");
let server: SidecarServer;
let pki: Pki;

interface Pki {
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string };
}

/** A CA with a server certificate for the sidecar and a client certificate for the API. */
async function makePki(): Promise<Pki> {
  const tls = await makeTestCa({ altNames: ["localhost", "127.0.0.1"] });
  const client = await tls.issueClientCert("docverify-api");
  return {
    ca: tls.caPem,
    server: { cert: tls.certPem, key: tls.keyPem },
    client: { cert: client.certPem, key: client.keyPem },
  };
}

beforeAll(async () => {
  pki = await makePki();
  server = await startSidecarServer({ listen: "127.0.0.1:0", device: "cpu", log, tls: { ...pki.server, ca: pki.ca } });
}, 30_000);

afterAll(() => server?.stop());

describe("a sidecar that requires mutual TLS", () => {
  test("serves a client that trusts its CA and presents a certificate from it", async () => {
    const client = createSidecarClient({
      targets: [server.address],
      log,
      tls: { ca: pki.ca, ...pki.client, serverName: "localhost" },
    });
    try {
      expect((await client.ready()).ok).toBe(true);
      const [page] = (await client.analyzeDocument({ format: "pdf", bytes: textPdf() })).pages;
      expect(readText(page!.lines)).toEqual(PAGE_TEXT);
    } finally {
      client.close();
    }
  }, 15_000);

  test("turns away a client without a certificate, and one speaking plaintext, as SERVICE_UNAVAILABLE", async () => {
    for (const tls of [{ ca: pki.ca, serverName: "localhost" }, undefined]) {
      const client = createSidecarClient({ targets: [server.address], log, tls, connectTimeoutMs: 1_000 });
      try {
        expect(await client.analyzeDocument({ format: "pdf", bytes: textPdf() }).catch((e) => e)).toMatchObject({
          code: "SERVICE_UNAVAILABLE",
          retryable: true,
        });
        expect((await client.ready()).ok).toBe(false);
      } finally {
        client.close();
      }
    }
  }, 15_000);

  test("cannot be reached by IP address without the name its certificate is checked against", () => {
    expect(() => createSidecarClient({ targets: [server.address], log, tls: { ca: pki.ca, ...pki.client } })).toThrow(
      "needs a server name",
    );
  });

  test("is refused by a client that does not trust its CA", async () => {
    const stranger = await makePki();
    const client = createSidecarClient({
      targets: [server.address],
      log,
      tls: { ca: stranger.ca, ...stranger.client, serverName: "localhost" },
      connectTimeoutMs: 1_000,
    });
    try {
      expect(await client.analyzeDocument({ format: "pdf", bytes: textPdf() }).catch((e) => e)).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
      });
    } finally {
      client.close();
    }
  }, 15_000);
});
