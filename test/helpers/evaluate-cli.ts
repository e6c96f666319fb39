// `bun scripts/evaluate.ts` as a user runs it: a child process, its output and exit status.
import { join } from "node:path";

const EVALUATE = join(import.meta.dir, "../../scripts/evaluate.ts");

export async function evaluateCli(args: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn([process.execPath, EVALUATE, ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, exitCode };
}
