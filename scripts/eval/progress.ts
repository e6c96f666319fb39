// Progress of a run on stderr: done/total, failures and the time left at the pace so far.
// A terminal gets one line rewritten in place; a log file gets a line every 5%.

export interface Progress {
  tick(done: number, failed: number): void;
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h${String(m).padStart(2, "0")}m` : `${m}m${String(s).padStart(2, "0")}s`;
}

export function createProgress(
  total: number,
  stream: { write(text: string): unknown; isTTY?: boolean } = process.stderr,
): Progress {
  const started = performance.now();
  const every = Math.max(1, Math.ceil(total / 20));
  return {
    tick(done, failed) {
      const finished = done === total;
      if (!stream.isTTY && !finished && done % every !== 0) return;
      const elapsed = performance.now() - started;
      const eta = done ? formatDuration((elapsed / done) * (total - done)) : "?";
      const percent = total ? Math.floor((done / total) * 100) : 100;
      const line = `evaluate: ${done}/${total} (${percent}%), ${failed} failed, ${finished ? `took ${formatDuration(elapsed)}` : `ETA ${eta}`}`;
      stream.write(stream.isTTY ? `\r${line}${finished ? "\n" : ""}` : `${line}\n`);
    },
  };
}
