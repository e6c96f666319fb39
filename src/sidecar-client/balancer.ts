// Round robin over sidecars, healthy ones first. A sidecar whose last health check failed, or
// that a call just found unavailable, is only chosen when no other is left to try.
import type { SidecarTarget } from "./target.ts";

export class RoundRobin {
  private next = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The next target not in `tried`, preferring healthy ones; undefined when all were tried. */
  pick(targets: readonly SidecarTarget[], tried: ReadonlySet<SidecarTarget>): SidecarTarget | undefined {
    const untried = this.rotated(targets).filter((target) => !tried.has(target));
    const healthy = untried.find((target) => target.serving !== false && target.downUntil <= this.now());
    const chosen = healthy ?? untried[0];
    if (chosen) this.next = (targets.indexOf(chosen) + 1) % targets.length;
    return chosen;
  }

  private rotated(targets: readonly SidecarTarget[]): SidecarTarget[] {
    const start = targets.length ? this.next % targets.length : 0;
    return [...targets.slice(start), ...targets.slice(0, start)];
  }
}
