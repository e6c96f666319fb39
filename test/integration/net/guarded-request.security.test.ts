import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { guardedRequest } from "../../../src/net/guarded-request.ts";
import type { GuardedRequestOptions } from "../../../src/net/guarded-request.ts";
import { makeTestCa, startHttpsServer } from "../../helpers/tls.ts";
import type { TestHttpsServer } from "../../helpers/tls.ts";
import { requestFailure, requestOptions } from "./requests.ts";
import { startRouteServer } from "./routes.ts";
import type { RouteServer } from "./routes.ts";

let server: RouteServer;
// A second loopback peer: what a redirect tries to reach when it must be refused.
let other: TestHttpsServer;
let otherHits = 0;
beforeAll(async () => {
  server = await startRouteServer();
  other = await startHttpsServer(
    () => {
      otherHits++;
      return new Response("should not be reached");
    },
    server.tls,
    { hostname: "127.0.0.2" },
  );
});
afterAll(() => {
  server.stop();
  other.stop();
});

const options = (overrides: Partial<GuardedRequestOptions>) =>
  requestOptions(server, { allowPrivate: false, ...overrides });
const failure = (overrides: Partial<GuardedRequestOptions>) => requestFailure(options(overrides));

/**
 * Exit code and output of a child Bun whose trust store NODE_EXTRA_CA_CERTS extends with the
 * route server's CA: it GETs /ok with guardedRequest (`ca` as the request's own option) and
 * prints `print`, an expression of `response`.
 */
async function requestFromChild(print: string, ca?: string): Promise<{ exit: number; stdout: string; stderr: string }> {
  // Without `ca` the child gets no ca option at all: JSON.stringify drops the undefined.
  const options = requestOptions(server, { maxResponseBytes: 100, maxRedirects: 0, ca });
  const script = `
    import { guardedRequest } from ${JSON.stringify(join(import.meta.dir, "../../../src/net/guarded-request.ts"))};
    const response = await guardedRequest(${JSON.stringify(options)});
    console.log(${print});`;
  const child = Bun.spawn([process.execPath, "-e", script], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: server.tls.caFile },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { exit: await child.exited, stdout: stdout.trim(), stderr };
}

describe("guardedRequest with private addresses refused", () => {
  test("refuses a host name that resolves to loopback, though a real server listens there", async () => {
    // Not an IP literal: only the socket's lookup stands between this URL and the server,
    // which proves node:https in Bun really calls it.
    const before = server.seen.length;
    const error = await failure({ url: `https://localhost:${server.port}/ok` });
    expect(error).toMatchObject({ kind: "refused_address", retryable: false });
    expect(error.message).toBe("localhost resolves to an address that may not be reached");
    expect(server.seen.length).toBe(before);
  });

  test("still reaches the same server when private addresses are allowed", async () => {
    const response = await guardedRequest(options({ url: `https://localhost:${server.port}/ok`, allowPrivate: true }));
    expect(response.status).toBe(200);
  });

  const literalForms = (port: number) => [
    `https://127.0.0.1:${port}/ok`,
    `https://2130706433:${port}/ok`,
    `https://0x7f.1:${port}/ok`,
    `https://0177.0.0.1:${port}/ok`,
    `https://127.1:${port}/ok`,
    `https://0x7f000001:${port}/ok`,
    `https://[::ffff:127.0.0.1]:${port}/ok`,
    `https://[::ffff:7f00:1]:${port}/ok`,
    `https://[::127.0.0.1]:${port}/ok`,
    `https://[::1]:${port}/ok`,
    `https://0:${port}/ok`,
    `https://[::]:${port}/ok`,
  ];

  test("refuses every literal spelling of a loopback address before connecting", async () => {
    const before = server.seen.length;
    for (const url of literalForms(server.port)) {
      expect({ url, kind: (await failure({ url })).kind }).toEqual({ url, kind: "refused_address" });
    }
    expect(server.seen.length).toBe(before);
  });

  test("checks every redirect hop: a redirect to a refused address is not followed", async () => {
    // Only the first server's address is allowed, so the first hop succeeds and the
    // redirect to the second loopback peer must be refused on its own merits.
    const onlyFirstServer = (ip: string) => ip !== "127.0.0.1";
    const to = encodeURIComponent(`${other.url}/ok`);
    const error = await failure({ url: `${server.url}/redirect?to=${to}`, refuseAddress: onlyFirstServer });
    expect(error.kind).toBe("refused_address");
    expect(otherHits).toBe(0);
  });

  test("drops Authorization when a redirect changes origin", async () => {
    const to = encodeURIComponent(`https://localhost:${server.port}/echo`);
    const response = await guardedRequest(
      options({
        url: `${server.url}/redirect?to=${to}`,
        allowPrivate: true,
        headers: { Authorization: "Bearer secret" },
      }),
    );
    expect(JSON.parse(new TextDecoder().decode(response.body))).toMatchObject({ authorization: null });
  });

  test("keeps Authorization on a same-origin redirect", async () => {
    const to = encodeURIComponent("/echo");
    const response = await guardedRequest(
      options({
        url: `${server.url}/redirect?to=${to}`,
        allowPrivate: true,
        headers: { Authorization: "Bearer secret" },
      }),
    );
    expect(JSON.parse(new TextDecoder().decode(response.body))).toMatchObject({ authorization: "Bearer secret" });
  });
});

describe("guardedRequest keeps TLS verification on", () => {
  test("refuses a server whose CA it was not given", async () => {
    const error = await failure({ allowPrivate: true, ca: undefined });
    expect(error).toMatchObject({ kind: "tls", retryable: false });
  });

  test("refuses a trusted certificate issued for another host name", async () => {
    const elsewhere = await makeTestCa({ altNames: ["documents.example.test"] });
    const mismatched = await startHttpsServer(() => new Response("x"), elsewhere);
    try {
      const error = await failure({ url: `${mismatched.url}/`, allowPrivate: true, ca: elsewhere.caPem });
      expect(error).toMatchObject({ kind: "tls" });
      expect(error.message).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      mismatched.stop();
    }
  });

  test("trusts an in-house CA given through NODE_EXTRA_CA_CERTS, with no ca option", async () => {
    const run = await requestFromChild("response.status, new TextDecoder().decode(response.body)");
    expect(run).toEqual({ exit: 0, stdout: "200 hello", stderr: "" });
  });

  test("adds the ca option to the runtime's trust store instead of replacing it", async () => {
    // With NODE_EXTRA_CA_CERTS trusting the server's CA and an unrelated `ca` option, the
    // request must still succeed: the option extends what the operator configured.
    const unrelated = await makeTestCa();
    const run = await requestFromChild("response.status", unrelated.caPem);
    expect(run).toEqual({ exit: 0, stdout: "200", stderr: "" });
  });
});
