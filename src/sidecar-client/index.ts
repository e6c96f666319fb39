// What `serve` calls: an analysis client over the sidecars. With no address configured it
// supervises an embedded sidecar (a child process of this same program); with addresses it
// balances over those remote sidecars.
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { type Readiness, type SidecarClient, type SidecarClientOptions, createSidecarClient } from "./client.ts";
import { superviseSidecar } from "./supervisor.ts";
import type { ClientTls } from "./target.ts";

export interface SidecarConnectionOptions {
  /** PEM file paths for remote sidecars: CA to verify them, this API's certificate and key. */
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsServerName?: string;
  deadlineMs?: number;
  /** The embedded child's command up to its flags (tests); default this program's `sidecar`. */
  embeddedCommand?: string[];
  /** Extra flags for the embedded child. */
  embeddedFlags?: string[];
}

export interface SidecarService extends Omit<SidecarClient, "setTargets" | "close"> {
  close(): Promise<void>;
}

export async function createSidecarService(
  config: Pick<Config, "sidecar" | "sidecarDevice">,
  log: Logger,
  options: SidecarConnectionOptions = {},
): Promise<SidecarService> {
  const clientOptions: SidecarClientOptions = {
    targets: config.sidecar,
    log,
    deadlineMs: options.deadlineMs,
    tls: await readTls(options),
  };
  if (config.sidecar.length > 0) {
    const client = createSidecarClient(clientOptions);
    log.info("using remote sidecars", { sidecars: config.sidecar, tls: Boolean(clientOptions.tls) });
    return { analyzeDocument: client.analyzeDocument, ready: client.ready, close: async () => client.close() };
  }

  // The embedded sidecar is a loopback child: no TLS between the two.
  const client = createSidecarClient({ ...clientOptions, tls: undefined, targets: [] });
  const supervisor = superviseSidecar({
    command: options.embeddedCommand,
    flags: options.embeddedFlags,
    device: config.sidecarDevice,
    log: log.child({ component: "embedded-sidecar" }),
    onListening: (address) => client.setTargets([address]),
  });
  const ready = async (): Promise<Readiness> => {
    const state = supervisor.state();
    if (!state.address) {
      const detail = state.restartAt
        ? `embedded sidecar restarting (start ${state.starts + 1})`
        : "embedded sidecar starting";
      return { ok: false, detail };
    }
    const answer = await client.ready();
    return {
      ok: answer.ok,
      detail: `embedded sidecar pid ${state.pid} at ${state.address}: ${answer.ok ? "serving" : "not serving"}`,
    };
  };
  return {
    analyzeDocument: client.analyzeDocument,
    ready,
    close: async () => {
      client.close();
      await supervisor.stop();
    },
  };
}

async function readTls(options: SidecarConnectionOptions): Promise<ClientTls | undefined> {
  if (!options.tlsCa && !options.tlsCert && !options.tlsKey) return undefined;
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey))
    throw new Error("sidecar client TLS needs both a certificate and a key");
  const read = (path: string | undefined) => (path ? Bun.file(path).bytes() : undefined);
  return {
    ca: await read(options.tlsCa),
    cert: await read(options.tlsCert),
    key: await read(options.tlsKey),
    serverName: options.tlsServerName,
  };
}
