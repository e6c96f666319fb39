// What every pixel detector shares: a page's traces by name, and how strongly an outlier
// counts once its trace's reliability is taken into account.
import type { SidecarPage, SidecarTrace } from "../../sidecar-client/result.ts";

/**
 * A trace less reliable than this on a page says too little to accuse anyone: it lowers
 * coverage (so confidence) and raises no flag.
 */
export const MIN_RELIABILITY = 0.5;

export const traceOf = (page: SidecarPage, name: string): SidecarTrace | undefined =>
  page.traces.find((t) => t.name === name);

/** Mean over pages of what a page could show (0 for a document with no page analysed). */
export const meanOver = (pages: readonly SidecarPage[], value: (page: SidecarPage) => number): number =>
  pages.length === 0 ? 0 : pages.reduce((sum, page) => sum + value(page), 0) / pages.length;

/**
 * Fusion multiplies each evidence strength by its detector's coverage; dividing by the
 * coverage here makes the product the page's own reliability times the base strength.
 */
export const scaledStrength = (base: number, reliability: number, coverage: number): number =>
  coverage > 0 ? Math.min(1, (base * reliability) / coverage) : 0;

/**
 * 0.5 at the threshold, 1 at twice it, for a trace whose globalScore is its measure over its
 * threshold.
 */
export const excessStrength = (excess: number): number => Math.min(1, 0.5 * excess);

export const round2 = (v: number): number => Math.round(v * 100) / 100;
