// L2-regularised logistic regression with box constraints on some weights, fitted by
// Newton's method (IRLS) on standardised features.
//
// Hand-written rather than a dependency: the npm packages for this (ml-logistic-regression,
// last released six years ago; the large TensorFlow.js) lack L2, bounds and a deterministic
// solver, or are far bigger than the Newton steps below.
import { sigmoid } from "../../src/analysis/fusion/model.ts";

export const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

/**
 * Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite).
 */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) x[r] = (M[r]![n]! - dot(M[r]!.slice(r + 1, n), x.slice(r + 1))) / M[r]![r]!;
  return x;
}

/**
 * Minimises mean log loss + λ/2·|w|² (intercept unpenalised) over rows X (first column 1),
 * each row's linear predictor shifted by its fixed offset (the weights held at a bound).
 */
function fitNewton(X: number[][], y: number[], offsets: number[], lambda: number): number[] {
  const d = X[0]!.length;
  let w = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = w.map((wj, j) => (j === 0 ? 0 : lambda * wj));
    const H = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j && i > 0 ? lambda : 0)));
    for (let n = 0; n < X.length; n++) {
      const x = X[n]!;
      const p = sigmoid(dot(w, x) + offsets[n]!);
      const r = p * (1 - p);
      for (let i = 0; i < d; i++) {
        grad[i]! += ((p - y[n]!) * x[i]!) / X.length;
        for (let j = 0; j < d; j++) H[i]![j]! += (r * x[i]! * x[j]!) / X.length;
      }
    }
    H[0]![0]! += 1e-9;
    const step = solve(H, grad);
    w = w.map((wj, j) => wj - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return w;
}

export interface Sample {
  features: readonly number[];
  /** 1 forged, 0 genuine. */
  y: number;
}

export interface Bounds {
  /** Lowest weight, in the feature's own units (−Infinity: none). */
  lower: number;
  /** Highest weight, in the feature's own units (Infinity: none). */
  upper: number;
}

export interface Fitted {
  /** Weights per feature, in the raw (unstandardised) units; 0 for features left out. */
  weights: number[];
  intercept: number;
}

/**
 * Fits the features `usable` allows, each weight kept within its bounds: a weight that comes
 * out beyond a bound is held there (as an offset) and the others refitted, until every free
 * weight is within its bounds. A weight held at 0 is the feature left out. With `on`, a model
 * already fitted (its intercept and weights, on other features) is kept as it is and the
 * usable features are fitted on top of it.
 */
export function fitBounded(
  samples: readonly Sample[],
  usable: (j: number) => boolean,
  bounds: (j: number) => Bounds,
  lambda: number,
  on?: Fitted,
): Fitted {
  const n = samples[0]!.features.length;
  // On a kept intercept the features are scaled but not centred: centring would move it.
  const mean = Array.from({ length: n }, (_, j) =>
    on ? 0 : samples.reduce((s, r) => s + r.features[j]!, 0) / samples.length,
  );
  const std = Array.from({ length: n }, (_, j) =>
    Math.sqrt(samples.reduce((s, r) => s + (r.features[j]! - mean[j]!) ** 2, 0) / samples.length),
  );
  const held = new Map<number, number>();
  let free = Array.from({ length: n }, (_, j) => j).filter((j) => usable(j) && std[j]! > 1e-9);
  const y = samples.map((r) => r.y);
  const base = samples.map((r) => (on ? on.intercept + dot(on.weights, r.features) : 0));
  for (;;) {
    const offsets = samples.map((r, i) => base[i]! + [...held].reduce((s, [j, w]) => s + w * r.features[j]!, 0));
    // The intercept's column is 0 when it is kept: its weight then stays 0.
    const X = samples.map((r) => [on ? 0 : 1, ...free.map((j) => (r.features[j]! - mean[j]!) / std[j]!)]);
    const w = fitNewton(X, y, offsets, lambda);
    const raw = free.map((j, k) => w[k + 1]! / std[j]!);
    const beyond = free.flatMap((j, k) => {
      const { lower, upper } = bounds(j);
      return raw[k]! < lower ? [[j, lower] as const] : raw[k]! > upper ? [[j, upper] as const] : [];
    });
    if (beyond.length === 0) {
      const weights = on ? [...on.weights] : new Array<number>(n).fill(0);
      for (const [j, v] of held) weights[j] = v;
      free.forEach((j, k) => {
        weights[j] = raw[k]!;
      });
      const intercept = on ? on.intercept : w[0]! - free.reduce((s, j, k) => s + (w[k + 1]! * mean[j]!) / std[j]!, 0);
      return { weights, intercept };
    }
    for (const [j, v] of beyond) held.set(j, v);
    free = free.filter((j) => !held.has(j));
  }
}
