// `docverify sidecar`: the inference sidecar as a process. The CLI calls runSidecarCommand();
// `serve` starts the same command as its embedded child (src/sidecar-client/supervisor.ts), which
// learns the bound address over the IPC channel and whose death this process follows.
//
// Nothing that loads native code is imported statically: src/main.ts (or the block at the end)
// prepares the runtime first.
import { type Config, ConfigError } from "../src/config.ts";
import { createLogger } from "../src/log.ts";
import type { DocumentLimits } from "./server/limits.ts";
import type { SidecarServer } from "./server/server.ts";

export type SidecarConfig = Pick<
  Config,
  | "sidecarListen"
  | "sidecarDevice"
  | "logLevel"
  | "sidecarTlsCa"
  | "sidecarTlsCert"
  | "sidecarTlsKey"
  | "sidecarThreads"
  | "sidecarConcurrency"
  | "sidecarMaxBatch"
  | "sidecarCudaLibDir"
  | "memoryLimitBytes"
> & { limits?: Partial<DocumentLimits> };

/** The IPC message an embedded sidecar sends its parent once it listens. */
interface ListeningMessage {
  type: "listening";
  address: string;
}

async function startSidecar(config: SidecarConfig): Promise<SidecarServer> {
  const log = createLogger(config.logLevel, { component: "sidecar" });
  // With a CA as well, clients must present a certificate it signed (mutual TLS).
  const tls =
    config.sidecarTlsCert && config.sidecarTlsKey
      ? {
          cert: await Bun.file(config.sidecarTlsCert).bytes(),
          key: await Bun.file(config.sidecarTlsKey).bytes(),
          ca: config.sidecarTlsCa ? await Bun.file(config.sidecarTlsCa).bytes() : undefined,
        }
      : undefined;
  const { startSidecarServer } = await import("./server/server.ts");
  (await import("../src/runtime/sharp-settings.ts")).configureSharpForService();
  const { ExecutionProviderError } = await import("./ocr/providers.ts");
  const server = await startSidecarServer({
    listen: config.sidecarListen,
    device: config.sidecarDevice,
    log,
    tls,
    limits: config.limits,
    cudaLibDir: config.sidecarCudaLibDir,
    ocr: { intraOpThreads: config.sidecarThreads, maxBatch: config.sidecarMaxBatch },
    concurrentDocuments: config.sidecarConcurrency,
    memoryLimitBytes: config.memoryLimitBytes,
  }).catch((error: unknown) => {
    // A device that cannot be honoured is bad configuration: one line and exit status 2.
    throw error instanceof ExecutionProviderError ? new ConfigError(error.setting, error.reason) : error;
  });
  console.log(`docverify sidecar listening on ${server.address} (${server.executionProviders.join(", ")})`);
  if (process.send) {
    process.send({ type: "listening", address: server.address } satisfies ListeningMessage);
    // An embedded sidecar must not outlive the API that started it, however that one ended.
    process.once("disconnect", () => void server.stop(2_000).then(() => process.exit(0)));
  }
  return server;
}

/** Runs until SIGTERM or SIGINT; resolves with the exit status. */
export async function runSidecarCommand(config: SidecarConfig): Promise<number> {
  const server = await startSidecar(config);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  await server.stop();
  // The IPC channel of an embedded sidecar would keep this process alive.
  process.disconnect?.();
  return 0;
}
