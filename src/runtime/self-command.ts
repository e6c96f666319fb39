import { resolve } from "node:path";

// From source the program is always src/main.ts, whichever script loaded this module
// (`bun src/main.ts serve`, but also `bun scripts/evaluate.ts`, whose Bun.main is not the CLI).
const SOURCE_ENTRY = resolve(import.meta.dir, "../main.ts");

/**
 * The command that starts this same program again (e.g. `serve` starting its embedded sidecar).
 * A compiled binary is its own interpreter; from source, bun must be told which script to run.
 */
export function selfCommand(...args: string[]): string[] {
  return Bun.isStandaloneExecutable ? [process.execPath, ...args] : [process.execPath, SOURCE_ENTRY, ...args];
}
