// Runs the real CLI (`bun src/main.ts …`) as child processes: `serve` on a free loopback
// port with its own data directory, and `keys` against the same directory.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

export interface ServiceOptions {
  dataDir?: string;
  env?: Record<string, string>;
}

export interface TestService {
  url: string;
  port: number;
  dataDir: string;
  process: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the service wrote to stderr so far (JSON log lines). */
  logs(): string;
  createKey(...args: string[]): Promise<string>;
  cli(...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** SIGTERM and wait for a clean exit; returns the exit code. */
  stop(): Promise<number>;
  /** SIGKILL: no chance to clean up. */
  kill9(): Promise<void>;
}

export const newDataDir = () => mkdtempSync(join(tmpdir(), "docverify-test-"));

export async function runCli(args: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}

async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }, onText?: () => void) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    sink.text += decoder.decode(chunk, { stream: true });
    onText?.();
  }
}

export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? newDataDir();
  const env = {
    DOCVERIFY_PORT: "0",
    DOCVERIFY_HOST: "127.0.0.1",
    DOCVERIFY_DATA_DIR: dataDir,
    DOCVERIFY_LOG_LEVEL: "debug",
    ...options.env,
  };
  const child = Bun.spawn([process.execPath, MAIN, "serve"], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const out = { text: "" };
  const err = { text: "" };
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in time:\n${err.text}`)), 90_000);
    void collect(child.stdout, out, () => {
      const match = /listening on port (\d+)/.exec(out.text);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    });
    void collect(child.stderr, err);
    void child.exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${err.text}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const cliEnv = { DOCVERIFY_DATA_DIR: dataDir, ...options.env };
  return {
    url,
    port,
    dataDir,
    process: child,
    logs: () => err.text,
    cli: (...args) => runCli(args, cliEnv),
    async createKey(...args) {
      const result = await runCli(["keys", "create", ...args], cliEnv);
      if (result.exitCode !== 0) throw new Error(`keys create failed: ${result.stderr}`);
      return result.stdout.trim().split("\n").at(-1)!;
    },
    async stop() {
      child.kill("SIGTERM");
      return child.exited;
    },
    async kill9() {
      child.kill("SIGKILL");
      await child.exited;
    },
  };
}

/** Waits until `check` returns a value other than undefined, polling every `everyMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(everyMs);
  }
}

/** POSTs `bytes` to /api/v1/verify as a multipart upload, as an integrator's client does. */
export const uploadDocument = (service: Pick<TestService, "url">, key: string, bytes: Uint8Array) => {
  const form = new FormData();
  form.append("document", new File([bytes], "document"));
  return fetch(`${service.url}/api/v1/verify`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
};
