// Sidecar processes for the benchmark, on a free loopback port, their address learnt over the
// IPC channel as the embedded supervisor learns it: the real command, `bun src/main.ts sidecar`.
import { resolve } from "node:path";
import type { ListeningMessage } from "../../sidecar/main.ts";
import type { Device } from "../../sidecar/ocr/providers.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

export interface BenchSidecar {
  address: string;
  stop(): Promise<void>;
}

/** `maxBatch` absent: the command's own default for the device. */
export async function startBenchSidecar(options: { device: Device; maxBatch?: number }): Promise<BenchSidecar> {
  const command = [process.execPath, MAIN, "sidecar", "--sidecar-listen", "127.0.0.1:0", "--sidecar-device", options.device, "--log-level", "warn"];
  if (options.maxBatch !== undefined) command.push("--sidecar-max-batch", String(options.maxBatch));
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
