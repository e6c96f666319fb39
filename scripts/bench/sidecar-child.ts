// A sidecar process with a dynamic-batching setting that `docverify sidecar` does not take from
// its flags: the same startSidecarServer the command runs, announcing its address over IPC as
// the command does. Used by the benchmark for the run without batching (maxBatch 1).
//
//   bun scripts/bench/sidecar-child.ts DEVICE MAX_BATCH   (stopped with SIGTERM)
import type { ListeningMessage } from "../../sidecar/main.ts";
import type { Device } from "../../sidecar/ocr/providers.ts";
import { prepareRuntime } from "../../src/runtime/index.ts";

// sharp, onnxruntime-node and mupdf load natives as they are imported: the runtime comes first.
await prepareRuntime();
const { startSidecarServer } = await import("../../sidecar/server/server.ts");
const { createLogger } = await import("../../src/log.ts");

const [device, maxBatch] = Bun.argv.slice(2);
const server = await startSidecarServer({
  listen: "127.0.0.1:0",
  device: device as Device,
  log: createLogger("warn", { component: "sidecar" }),
  ocr: { maxBatch: Number(maxBatch) },
});
process.send?.({ type: "listening", address: server.address } satisfies ListeningMessage);
process.once("SIGTERM", () => void server.stop().then(() => process.exit(0)));
