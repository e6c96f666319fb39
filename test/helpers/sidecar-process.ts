// A real sidecar process for the tests: `docverify sidecar` on a free loopback port, its
// address learnt over the IPC channel exactly as the embedded supervisor learns it.
import type { Subprocess } from "bun";
import { resolve } from "node:path";

export const SIDECAR_COMMAND = [process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "sidecar"];

export interface SidecarProcess {
  address: string;
  process: Subprocess;
  stop(): Promise<void>;
}

/** `docverify sidecar` on a free loopback port (the tests and the sidecar benchmark). */
export async function startSidecarProcess(
  flags: string[] = [],
  device: "cpu" | "auto" | "cuda" = "cpu",
): Promise<SidecarProcess> {
  let listening: (address: string) => void = () => {};
  const address = new Promise<string>((resolve) => (listening = resolve));
  const child = Bun.spawn(
    [
      ...SIDECAR_COMMAND,
      "--sidecar-listen",
      "127.0.0.1:0",
      "--sidecar-device",
      device,
      "--log-level",
      "warn",
      ...flags,
    ],
    {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "inherit",
      ipc(message: { type?: string; address?: string }) {
        if (message.type === "listening" && message.address) listening(message.address);
      },
    },
  );
  const early = child.exited.then((code) => {
    throw new Error(`sidecar exited with ${code} before listening`);
  });
  early.catch(() => {});
  return {
    address: await Promise.race([address, early]),
    process: child,
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}
