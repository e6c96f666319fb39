// The outside programs the external families are made with, run as child processes: each
// is looked up on PATH first so a missing one stops the run with one line that says how to
// install it, and each runs with a pinned environment (UTC, C.UTF-8, SOURCE_DATE_EPOCH) so
// that what the tool lets us fix is fixed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Tool = "soffice" | "chromium" | "gs" | "convert";

const PACKAGE: Record<Tool, string> = {
  soffice: "libreoffice-writer-nogui",
  chromium: "chromium",
  gs: "ghostscript",
  convert: "imagemagick",
};

export class MissingToolError extends Error {}

export function requireTool(tool: Tool): void {
  if (Bun.which(tool)) return;
  throw new MissingToolError(
    `${tool} not found (Debian package ${PACKAGE[tool]}): run scripts/corpus/external/install-tools.sh`,
  );
}

export interface RunOptions {
  /** The corpus clock, handed to tools that honour SOURCE_DATE_EPOCH (Ghostscript does). */
  epoch: Date;
  cwd?: string;
}

/** Runs a tool to completion; throws with its stderr when it fails. */
export async function runTool(tool: Tool, args: string[], options: RunOptions): Promise<void> {
  requireTool(tool);
  const child = Bun.spawn([tool, ...args], {
    cwd: options.cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.cwd ?? tmpdir(),
      TZ: "UTC",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      SOURCE_DATE_EPOCH: String(Math.floor(options.epoch.getTime() / 1000)),
    },
  });
  const [stderr, code] = await Promise.all([
    new Response(child.stderr).text(),
    child.exited,
    new Response(child.stdout).text(),
  ]);
  if (code !== 0)
    throw new Error(
      `${tool} ${args.slice(0, 3).join(" ")}… exited ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
}

/** A scratch folder for one document's sources and tool profiles, removed afterwards. */
export async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "docverify-external-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
