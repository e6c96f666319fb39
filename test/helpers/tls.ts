// Throwaway TLS for tests: a CA made at test time and a server certificate it signed (for
// localhost, 127.0.0.1 and ::1 unless told otherwise), so clients keep full verification
// on and trust only what the test hands them (as `ca`, or a file for NODE_EXTRA_CA_CERTS).
// The same CA issues client certificates for mutual TLS.

import { mkdtempSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

interface TestCertificate {
  certPem: string;
  keyPem: string;
}

export interface TestTls extends TestCertificate {
  caPem: string;
  /** caPem written to a fresh temp dir, for NODE_EXTRA_CA_CERTS in child processes. */
  caFile: string;
  /** A client certificate (extKeyUsage clientAuth) signed by this CA. */
  issueClientCert(commonName: string): Promise<TestCertificate>;
}

export interface TestCaOptions {
  /** Names and IPs the server certificate is valid for; default localhost, 127.0.0.1, ::1. */
  altNames?: string[];
}

export async function makeTestCa(options: TestCaOptions = {}): Promise<TestTls> {
  const altNames = options.altNames ?? ["localhost", "127.0.0.1", "::1"];
  // A unique name per CA: verifiers pick issuers by name, so two "test CA"s would collide.
  const ca = await generate([{ name: "commonName", value: `docverify test CA ${crypto.randomUUID()}` }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const issue = async (
    commonName: string,
    usage: { serverAuth: true } | { clientAuth: true },
    names: string[],
  ): Promise<TestCertificate> => {
    const leaf = await generate([{ name: "commonName", value: commonName }], {
      keyType: "ec",
      algorithm: "sha256",
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", ...usage },
        {
          name: "subjectAltName",
          // SAN type 2 is a DNS name, type 7 an IP address.
          altNames: names.map((name) => (isIP(name) === 0 ? { type: 2, value: name } : { type: 7, ip: name })),
        },
      ],
    });
    return { certPem: leaf.cert, keyPem: leaf.private };
  };
  const server = await issue(altNames[0] ?? "localhost", { serverAuth: true }, altNames);
  const caFile = join(mkdtempSync(join(tmpdir(), "docverify-tls-")), "ca.pem");
  writeFileSync(caFile, ca.cert);
  return {
    caPem: ca.cert,
    ...server,
    caFile,
    issueClientCert: (commonName) => issue(commonName, { clientAuth: true }, [commonName]),
  };
}

export interface TestHttpsServer {
  /** https://HOST:PORT, HOST being 127.0.0.1 unless told otherwise; no trailing slash. */
  url: string;
  port: number;
  stop(): void;
}

export interface TestServerOptions {
  /** A loopback address to listen on (any of 127/8 works on Linux); default 127.0.0.1. */
  hostname?: string;
}

export async function startHttpsServer(
  handler: (request: Request) => Response | Promise<Response>,
  tls: Pick<TestTls, "certPem" | "keyPem">,
  options: TestServerOptions = {},
): Promise<TestHttpsServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const server = Bun.serve({
    hostname,
    port: 0,
    tls: { cert: tls.certPem, key: tls.keyPem },
    fetch: handler,
  });
  const port = server.port ?? 0;
  const host = isIP(hostname) === 6 ? `[${hostname}]` : hostname;
  return { url: `https://${host}:${port}`, port, stop: () => void server.stop(true) };
}
