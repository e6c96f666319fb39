/**
 * The command that starts this same program again (e.g. `serve` starting its embedded sidecar).
 * A compiled binary is its own interpreter; from source, bun must be told which script to run.
 */
export function selfCommand(...args: string[]): string[] {
  return Bun.isStandaloneExecutable ? [process.execPath, ...args] : [process.execPath, Bun.main, ...args];
}
