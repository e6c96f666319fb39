// Pages sent to a sidecar process through the API's own gRPC client, one after another or
// several at once.
import { type SidecarClient, createSidecarClient } from "../../src/sidecar-client/client.ts";
import { createLogger } from "../../src/log.ts";
import type { StatementPage } from "./statement-page.ts";

export interface SidecarTiming {
  /** What the caller waited: sending the bytes, the analysis, the answer. */
  clientMs: number;
  /** What the sidecar reports it spent once it had the bytes. */
  sidecarMs: number;
  /** The pixel forensics of the page, as the sidecar reports it. */
  forensicsMs: number;
}

export interface Series {
  timings: SidecarTiming[];
  /** Wall ms of the whole series. */
  wallMs: number;
}

export function benchClient(address: string): SidecarClient {
  // A page queued behind seven others on two cores may wait a minute; the deadline is no measure
  // here.
  return createSidecarClient({
    targets: [address],
    log: createLogger("warn", { component: "bench-client" }),
    deadlineMs: 600_000,
  });
}

/** One page, on its own. */
export async function sendPage(client: SidecarClient, page: StatementPage): Promise<SidecarTiming> {
  const started = performance.now();
  const analysis = await client.analyzeDocument({ bytes: page.jpeg, format: "jpeg" });
  const clientMs = performance.now() - started;
  const forensicsMs = Number(analysis.pages[0]?.forensicFacts.forensics_ms ?? Number.NaN);
  return { clientMs, sidecarMs: analysis.elapsedMs, forensicsMs };
}

/** `count` copies of the page with `concurrency` of them in flight at any time. */
export async function sendPages(
  client: SidecarClient,
  page: StatementPage,
  count: number,
  concurrency: number,
): Promise<Series> {
  const timings: SidecarTiming[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      timings.push(await sendPage(client, page));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { timings, wallMs: performance.now() - started };
}
