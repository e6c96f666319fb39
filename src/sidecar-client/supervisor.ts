// The embedded sidecar: `serve` without DOCVERIFY_SIDECAR runs `docverify sidecar` as its child
// on a free loopback port, learns the bound address over the IPC channel, and starts it again
// with growing pauses whenever it dies. The child exits by itself when this process goes away
// (sidecar/main.ts watches the IPC channel), so a killed API leaves no orphan behind.
import type { Subprocess } from "bun";
import type { Logger } from "../log.ts";
import { selfCommand } from "../runtime/self-command.ts";

export interface SupervisorOptions {
  /** The command up to its flags; default this program's own `sidecar` command. */
  command?: string[];
  /** Passed as --sidecar-device. */
  device: "auto" | "cpu" | "cuda";
  /** Extra flags for the child (e.g. thread counts). */
  flags?: string[];
  log: Logger;
  /** Called with host:port each time a (re)started child listens. */
  onListening(address: string): void;
  /** A child that does not listen within this long is killed and started again (default 120 s). */
  startTimeoutMs?: number;
  /**
   * Pause before a restart: doubles from initialMs up to maxMs; resets after a child ran a minute.
   */
  backoff?: { initialMs: number; maxMs: number };
}

interface SupervisorState {
  /** host:port while a child listens. */
  address?: string;
  pid?: number;
  /** Children started so far. */
  starts: number;
  /** When the next start is due, while waiting to restart. */
  restartAt?: number;
}

export interface Supervisor {
  state(): SupervisorState;
  /** Stops the child (SIGTERM, then SIGKILL after `graceMs`) and does not restart it. */
  stop(graceMs?: number): Promise<void>;
}

const STABLE_MS = 60_000;

export function superviseSidecar(options: SupervisorOptions): Supervisor {
  const { log } = options;
  const command = [
    ...(options.command ?? selfCommand("sidecar")),
    "--sidecar-listen",
    "127.0.0.1:0",
    "--sidecar-device",
    options.device,
    ...(options.flags ?? []),
  ];
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const state: SupervisorState = { starts: 0 };
  let child: Subprocess | undefined;
  let failures = 0;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    restartTimer = undefined;
    state.restartAt = undefined;
    state.starts++;
    const startedAt = Date.now();
    const current = Bun.spawn(command, {
      // libvips and ONNX Runtime allocate from many threads; glibc's default of one malloc
      // arena per thread (up to 8 per core) keeps freed pages resident long after a large
      // image. Two arenas return them.
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "inherit",
      ipc(message: unknown) {
        const listening = message as { type?: string; address?: string };
        if (listening.type !== "listening" || typeof listening.address !== "string" || current !== child) return;
        clearTimeout(startTimer);
        state.address = listening.address;
        log.info("embedded sidecar listening", {
          address: listening.address,
          pid: current.pid,
          ms: Date.now() - startedAt,
        });
        options.onListening(listening.address);
      },
    });
    child = current;
    state.pid = current.pid;
    const startTimer = setTimeout(() => {
      log.error("embedded sidecar did not start in time, killing it", { pid: current.pid, timeoutMs: startTimeoutMs });
      current.kill("SIGKILL");
    }, startTimeoutMs);
    void current.exited.then((code) => {
      clearTimeout(startTimer);
      if (child !== current) return;
      child = undefined;
      state.address = undefined;
      state.pid = undefined;
      if (stopping) return;
      failures = Date.now() - startedAt >= STABLE_MS ? 1 : failures + 1;
      const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failures - 1));
      log.error("embedded sidecar exited, restarting", { code, signal: current.signalCode, restartInMs: delay });
      state.restartAt = Date.now() + delay;
      restartTimer = setTimeout(start, delay);
    });
  };
  start();

  const stop = async (graceMs = 10_000) => {
    stopping = true;
    clearTimeout(restartTimer);
    const current = child;
    if (!current) return;
    current.kill("SIGTERM");
    const killer = setTimeout(() => current.kill("SIGKILL"), graceMs);
    await current.exited;
    clearTimeout(killer);
  };

  return { state: () => ({ ...state }), stop };
}
