// Remote sidecars over mutual TLS: the client verifies the sidecar against a CA and presents a
// certificate of its own, and the sidecar turns away clients without one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generate } from "selfsigned";
import { createLogger } from "../../../src/log.ts";
import { createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { type SidecarServer, startSidecarServer } from "../../../sidecar/server/server.ts";
import { PAGE_LINES, squash, textPdf } from "./fixtures.ts";

const log = createLogger("error");
let server: SidecarServer;
let pki: { ca: string; server: { cert: string; key: string }; client: { cert: string; key: string } };

async function makePki() {
  const ca = await generate([{ name: "commonName", value: "docverify sidecar test CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = async (commonName: string, usage: { serverAuth?: boolean; clientAuth?: boolean }) => {
    const made = await generate([{ name: "commonName", value: commonName }], {
      keyType: "ec",
      algorithm: "sha256",
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", ...usage },
        { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }] },
      ],
    });
    return { cert: made.cert, key: made.private };
  };
  return { ca: ca.cert, server: await leaf("sidecar", { serverAuth: true }), client: await leaf("docverify-api", { clientAuth: true }) };
}

beforeAll(async () => {
  pki = await makePki();
  server = await startSidecarServer({ listen: "127.0.0.1:0", device: "cpu", log, tls: { ...pki.server, ca: pki.ca } });
}, 30_000);

afterAll(() => server?.stop());

describe("a sidecar that requires mutual TLS", () => {
  test("serves a client that trusts its CA and presents a certificate from it", async () => {
    const client = createSidecarClient({ targets: [server.address], log, tls: { ca: pki.ca, ...pki.client, serverName: "localhost" } });
    try {
      expect((await client.ready()).ok).toBe(true);
      const [page] = (await client.analyzeDocument({ format: "pdf", bytes: textPdf() })).pages;
      expect(page!.lines.map((line) => squash(line.text))).toEqual(PAGE_LINES.map(squash));
    } finally {
      client.close();
    }
  }, 15_000);

  test("turns away a client without a certificate, and one speaking plaintext, as SERVICE_UNAVAILABLE", async () => {
    for (const tls of [{ ca: pki.ca, serverName: "localhost" }, undefined]) {
      const client = createSidecarClient({ targets: [server.address], log, tls, connectTimeoutMs: 1_000 });
      try {
        expect(await client.analyzeDocument({ format: "pdf", bytes: textPdf() }).catch((e) => e)).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
        expect((await client.ready()).ok).toBe(false);
      } finally {
        client.close();
      }
    }
  }, 15_000);

  test("cannot be reached by IP address without the name its certificate is checked against", () => {
    expect(() => createSidecarClient({ targets: [server.address], log, tls: { ca: pki.ca, ...pki.client } })).toThrow("needs a server name");
  });

  test("is refused by a client that does not trust its CA", async () => {
    const stranger = await makePki();
    const client = createSidecarClient({ targets: [server.address], log, tls: { ca: stranger.ca, ...stranger.client, serverName: "localhost" }, connectTimeoutMs: 1_000 });
    try {
      expect(await client.analyzeDocument({ format: "pdf", bytes: textPdf() }).catch((e) => e)).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    } finally {
      client.close();
    }
  }, 15_000);
});
