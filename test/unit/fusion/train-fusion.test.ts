import { describe, expect, test } from "bun:test";
import { FEATURE_NAMES } from "../../../src/analysis/fusion/features.ts";
import { flagBounds } from "../../../scripts/fusion/flag-bounds.ts";
import { fitBounded } from "../../../scripts/fusion/logistic.ts";
import { type FamilySample, outOfFamily, train } from "../../../scripts/fusion/leave-one-family-out.ts";

const at = (name: string) => FEATURE_NAMES.indexOf(name);
const vector = (values: Record<string, number>) => FEATURE_NAMES.map((name) => values[name] ?? 0);

/**
 * Four families of 30 genuine and 20 forged documents. pdf_text_overlay fires on half the
 * forgeries and no genuine document; editing_software on the other half of the forgeries and,
 * in family "d" only, on a third of the genuine documents (a family whose tool names itself).
 */
function corpus(): FamilySample[] {
  const out: FamilySample[] = [];
  for (const family of ["a", "b", "c", "d"]) {
    for (let i = 0; i < 30; i++)
      out.push({
        family,
        y: 0,
        prior: {},
        features: vector(family === "d" && i % 3 === 0 ? { "flag:editing_software": 1 } : {}),
      });
    for (let i = 0; i < 20; i++)
      out.push({
        family,
        y: 1,
        prior: {},
        features: vector(i % 2 === 0 ? { "flag:pdf_text_overlay": 1 } : { "flag:editing_software": 1 }),
      });
  }
  return out;
}

describe("flag bounds", () => {
  test("a flag never seen on a genuine document is still assumed to fire on some", () => {
    const bounds = flagBounds(corpus());
    expect(bounds.pdf_text_overlay!.genuineFired).toBe(0);
    expect(bounds.pdf_text_overlay!.fpr).toBeCloseTo(0.5 / 220, 5);
    expect(Number.isFinite(bounds.pdf_text_overlay!.maxWeight)).toBe(true);
  });

  test("a flag that fires on genuine documents weighs less than one that does not", () => {
    const bounds = flagBounds(corpus());
    expect(bounds.editing_software!.maxWeight).toBeLessThan(bounds.pdf_text_overlay!.maxWeight);
    // Never raised at all: what little it may weigh comes from the priors alone.
    expect(bounds.copy_move!.maxWeight).toBeLessThan(bounds.editing_software!.maxWeight);
  });
});

describe("the bounded fit", () => {
  test("holds each flag's weight within its bound where the data would push it further", () => {
    const samples = corpus();
    const free = fitBounded(
      samples,
      () => true,
      (j) => ({ lower: j === at("flag:pdf_text_overlay") ? 0 : -Infinity, upper: Infinity }),
      0.001,
    );
    const trained = train(samples, 0.001);
    expect(free.weights[at("flag:pdf_text_overlay")]!).toBeGreaterThan(trained.bounds.pdf_text_overlay!.maxWeight);
    expect(trained.weights[at("flag:pdf_text_overlay")]).toBeCloseTo(trained.bounds.pdf_text_overlay!.maxWeight, 6);
    expect(trained.weights[at("flag:editing_software")]!).toBeLessThanOrEqual(
      trained.bounds.editing_software!.maxWeight + 1e-9,
    );
  });
});

describe("leave-one-family-out", () => {
  test("scores every document once, by a model that never saw its family", () => {
    const samples = corpus();
    const held = outOfFamily(samples, () => {});
    expect(held.map((h) => h.family)).toEqual(["a", "b", "c", "d"]);
    expect(held.flatMap((h) => h.scores.map((s) => s.index)).sort((x, y) => x - y)).toEqual(samples.map((_, i) => i));
    // Relabel family d: its own scores cannot change, the others' do.
    const relabelled = samples.map((s) => (s.family === "d" ? { ...s, y: 1 - s.y } : s));
    const again = outOfFamily(relabelled, () => {});
    expect(again.find((h) => h.family === "d")!.scores).toEqual(held.find((h) => h.family === "d")!.scores);
    expect(again.find((h) => h.family === "a")!.scores).not.toEqual(held.find((h) => h.family === "a")!.scores);
  });

  test("a provenance flag alone keeps a held-out document under the verdict line", () => {
    const held = outOfFamily(corpus(), () => {});
    const d = held.find((h) => h.family === "d")!;
    for (const s of d.scores) if (s.flags.every((f) => f === "editing_software")) expect(s.score).toBeLessThan(0.5);
    expect(d.scores.some((s) => s.flags.includes("pdf_text_overlay") && s.score >= 0.5)).toBe(true);
  });

  test("evidence of alteration that always comes with a provenance concern still carries a verdict alone", () => {
    // Every forgery: text drawn over a white box, added in a later revision; a quarter of the
    // genuine documents carry a later revision too (a viewer's save that touched a page).
    const samples: FamilySample[] = [];
    for (const family of ["a", "b", "c"]) {
      for (let i = 0; i < 40; i++)
        samples.push({
          family,
          y: 0,
          prior: {},
          features: vector(i % 4 === 0 ? { "flag:pdf_incremental_update": 1 } : {}),
        });
      for (let i = 0; i < 10; i++)
        samples.push({
          family,
          y: 1,
          prior: {},
          features: vector({ "flag:pdf_text_overlay": 0.85, "flag:pdf_incremental_update": 1 }),
        });
    }
    const model = train(samples, 0.01);
    // The alteration evidence is weighed as if the revision were unknown...
    const unknown = train(
      samples.map((s) => ({
        ...s,
        features: s.features.map((v, j) => (j === at("flag:pdf_incremental_update") ? 0 : v)),
      })),
      0.01,
    );
    expect(model.intercept).toBeCloseTo(unknown.intercept, 6);
    expect(model.weights[at("flag:pdf_text_overlay")]!).toBeCloseTo(unknown.weights[at("flag:pdf_text_overlay")]!, 6);
    // ...so alone it reaches the line, and the revision adds to it.
    expect(model.intercept + model.weights[at("flag:pdf_text_overlay")]! * 0.85).toBeGreaterThan(0);
    expect(model.weights[at("flag:pdf_incremental_update")]!).toBeGreaterThan(0);
  });

  test("a flag that is no feature adds its prior weight to the held-out score, as the service adds it", () => {
    const samples = corpus();
    const first = samples.findIndex((s) => s.family === "a" && s.y === 0);
    samples[first] = { ...samples[first]!, prior: { duplicate_submission: 1 } };
    const a = outOfFamily(samples, () => {}).find((h) => h.family === "a")!;
    const scored = a.scores.find((s) => s.index === first)!;
    expect(scored.flags).toContain("duplicate_submission");
    expect(scored.score).toBeGreaterThan(0.5);
    const plain = a.scores.find((s) => s.index !== first && samples[s.index]!.y === 0)!;
    expect(plain.score).toBeLessThan(0.5);
  });
});
