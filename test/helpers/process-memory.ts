// Resident memory of a service's processes, read from /proc: the serve process (its analysis
// workers are threads of it) and its children (the embedded sidecar).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

export interface ProcessMemory {
  pid: number;
  /** VmRSS: resident now, in bytes. */
  rss: number;
  /** VmHWM: the most it was ever resident, in bytes. */
  peak: number;
}

const kib = (status: string, field: string): number =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;

function memoryOf(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return { pid, rss: kib(status, "VmRSS"), peak: kib(status, "VmHWM") };
  } catch {
    return undefined;
  }
}

/** Direct children of `pid` (every thread's children list, as /proc keeps them per task). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** The service process and each of its children. */
export const serviceMemory = (pid: number): ProcessMemory[] =>
  [pid, ...childrenOf(pid)].map(memoryOf).filter((m): m is ProcessMemory => m !== undefined);

export const mb = (bytes: number): number => Math.round(bytes / 1_048_576);

/**
 * Starts each process's VmHWM again from its resident size now (Linux's clear_refs), so that the
 * next `peak` is the most it held since, not since it started.
 */
export function resetPeaks(processes: ProcessMemory[]): void {
  for (const { pid } of processes) writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
