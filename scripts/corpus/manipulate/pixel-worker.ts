// The Python/OpenCV process that does the pixel work, driven over stdin/stdout (one JSON line
// per request and per answer). Debian's interpreter is named explicitly: a pyenv or virtualenv
// python3 on PATH lacks the Debian-packaged cv2 and numpy that install-tools.sh adds.
import { join } from "node:path";
import type { Subprocess } from "bun";

const PYTHON = "/usr/bin/python3";
const WORKER = join(import.meta.dir, "worker.py");

export class MissingToolError extends Error {}

/** Stops the run with one line when the interpreter or its modules are missing. */
export function requirePixelTools(): void {
  const probe = Bun.spawnSync([PYTHON, "-c", "import cv2, numpy"], { stdout: "ignore", stderr: "ignore" });
  if (probe.exitCode !== 0) {
    throw new MissingToolError(
      `${PYTHON} with OpenCV and numpy not found (Debian python3-opencv python3-numpy): run scripts/corpus/manipulate/install-tools.sh`,
    );
  }
}

/** Whether the pixel tools are installed, for callers that can do without them. */
export function hasPixelTools(): boolean {
  try {
    requirePixelTools();
    return true;
  } catch {
    return false;
  }
}

export class PixelWorker {
  private readonly proc: Subprocess<"pipe", "pipe", "inherit">;
  private readonly reader: { read(): Promise<{ value?: Uint8Array; done: boolean }> };
  private buffered = "";
  private readonly decoder = new TextDecoder();

  constructor() {
    requirePixelTools();
    this.proc = Bun.spawn([PYTHON, "-B", WORKER], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      // Fixed thread counts and no bytecode files beside the committed modules.
      env: {
        PATH: "/usr/bin:/bin",
        PYTHONDONTWRITEBYTECODE: "1",
        OMP_NUM_THREADS: "1",
        OPENBLAS_NUM_THREADS: "1",
        LC_ALL: "C.UTF-8",
      },
    });
    this.reader = this.proc.stdout.getReader();
  }

  private async line(): Promise<string> {
    for (;;) {
      const nl = this.buffered.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        return line;
      }
      const { value, done } = await this.reader.read();
      if (done) throw new Error(`the pixel worker (${WORKER}) exited`);
      this.buffered += this.decoder.decode(value, { stream: true });
    }
  }

  /** Runs one operation; throws with the worker's error when it fails. Calls must not overlap. */
  async call<T>(op: string, args: Record<string, unknown>): Promise<T> {
    this.proc.stdin.write(`${JSON.stringify({ op, args })}\n`);
    await this.proc.stdin.flush();
    const reply = JSON.parse(await this.line()) as { ok: boolean; result?: T; error?: string; trace?: string };
    if (!reply.ok) throw new Error(`pixel worker ${op} ${JSON.stringify(args)}: ${reply.error}\n${reply.trace ?? ""}`);
    return reply.result as T;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}
