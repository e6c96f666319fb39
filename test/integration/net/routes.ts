// One HTTPS test server for the net tests: each path plays a behaviour a remote host can
// have (redirect chains, big or slow answers, echoes). It counts the requests it saw so a
// test can prove a refused request never arrived.

import sharp from "sharp";
import { makeTestCa, startHttpsServer } from "../../helpers/tls.ts";
import type { TestHttpsServer, TestTls } from "../../helpers/tls.ts";

export interface RouteServer extends TestHttpsServer {
  tls: TestTls;
  seen: string[];
}

export async function startRouteServer(tls?: TestTls): Promise<RouteServer> {
  const testTls = tls ?? (await makeTestCa());
  const seen: string[] = [];
  let origin = "";
  const server = await startHttpsServer(async (request) => {
    const url = new URL(request.url);
    seen.push(url.pathname);
    const [, route = "", argument = ""] = url.pathname.split("/");
    switch (route) {
      case "ok":
        return new Response("hello");
      case "echo":
        return Response.json({
          method: request.method,
          bytes: (await request.bytes()).byteLength,
          contentType: request.headers.get("content-type"),
          authorization: request.headers.get("authorization"),
          signature: request.headers.get("x-signature"),
          host: request.headers.get("host"),
        });
      case "hops": {
        // /hops/N redirects N more times, then answers.
        const left = Number(argument);
        return left === 0 ? new Response("arrived") : redirect(`${origin}/hops/${left - 1}`, 302);
      }
      case "redirect":
        // /redirect?to=URL&status=CODE
        return redirect(url.searchParams.get("to") ?? "/", Number(url.searchParams.get("status") ?? 302));
      case "status":
        return new Response(`status body ${argument}`, { status: Number(argument) });
      case "bytes":
        return new Response(new Uint8Array(Number(argument)).fill(0x41));
      case "png":
        return new Response(await pngOf(Number(argument)), { headers: { "content-type": "image/png" } });
      case "stream":
        // /stream/N?pause=MS
        return new Response(slowStream(Number(argument), Number(url.searchParams.get("pause") ?? 5)));
      case "slow":
        await Bun.sleep(Number(argument));
        return new Response("late");
      default:
        return new Response("no such route", { status: 404 });
    }
  }, testTls);
  origin = server.url;
  return { ...server, tls: testTls, seen };
}

function redirect(location: string, status: number): Response {
  return new Response(null, { status, headers: { location } });
}

/** `total` bytes in 16 kB chunks, `pauseMs` apart, and no Content-Length: the client must count. */
function slowStream(total: number, pauseMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      if (pauseMs > 0) await Bun.sleep(pauseMs);
      const size = Math.min(16_384, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x42));
    },
  });
}

/** A real PNG, `side` pixels square, for end-to-end fetch-and-validate tests. */
export function pngOf(side: number): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 3, background: "#2a6" } })
    .png()
    .toBuffer();
}
