// Sidecar processes for the benchmark, on a free loopback port, their address learnt over the
// IPC channel as the embedded supervisor learns it. The default configuration is the real
// command (`bun src/main.ts sidecar`); another batch size runs sidecar-child.ts, because the
// command has no flag for it.
import { resolve } from "node:path";
import type { ListeningMessage } from "../../sidecar/main.ts";
import type { Device } from "../../sidecar/ocr/providers.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const CHILD = resolve(import.meta.dir, "sidecar-child.ts");

export interface BenchSidecar {
  address: string;
  stop(): Promise<void>;
}

/** `maxBatch` absent: the command with its defaults; otherwise a sidecar batching at most that many inputs per model call. */
export async function startBenchSidecar(options: { device: Device; maxBatch?: number }): Promise<BenchSidecar> {
  const command =
    options.maxBatch === undefined
      ? [process.execPath, MAIN, "sidecar", "--sidecar-listen", "127.0.0.1:0", "--sidecar-device", options.device, "--log-level", "warn"]
      : [process.execPath, CHILD, options.device, String(options.maxBatch)];
  let listening: (address: string) => void = () => {};
  const address = new Promise<string>((resolve) => (listening = resolve));
  const child = Bun.spawn(command, {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
    ipc(message: Partial<ListeningMessage>) {
      if (message.type === "listening" && message.address) listening(message.address);
    },
  });
  const early = child.exited.then((code) => {
    throw new Error(`sidecar exited with ${code} before listening`);
  });
  // Once the address is known this only settles at stop(), when nobody waits on it.
  early.catch(() => {});
  return {
    address: await Promise.race([address, early]),
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}
