// A small deterministic generator (mulberry32) for code that wants repeatable noise without
// the corpus's derived generators (scripts/corpus/rng.ts): the recapture simulation and the
// tests' fixtures, whose images must come out the same run to run.

/** Uniform floats in [0, 1): the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
