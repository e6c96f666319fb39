import { describe, expect, test } from "bun:test";
import { ctcGreedy } from "../../../../sidecar/ocr/ctc.ts";

// Blank, four characters and the space, as a PaddleOCR dictionary gives them.
const LABELS = ["", "3", "5", "8", "a", " "];

/** One row of class probabilities per time step, each row given as { label: probability }. */
function steps(rows: Record<string, number>[]): Float32Array {
  const probs = new Float32Array(rows.length * LABELS.length);
  rows.forEach((row, t) => {
    for (const [label, p] of Object.entries(row))
      probs[t * LABELS.length + LABELS.indexOf(label === "blank" ? "" : label)] = p;
  });
  return probs;
}

describe("CTC greedy decoding", () => {
  const probs = steps([
    { blank: 0.9, "3": 0.1 },
    { "3": 0.7, "8": 0.2, "5": 0.05, blank: 0.05 },
    { "3": 0.95, "8": 0.03, blank: 0.02 },
    { blank: 0.99 },
    { "5": 0.98, "3": 0.015, blank: 0.005 },
    { "5": 0.6, blank: 0.4 },
  ]);

  test("merges repeats, drops blanks and keeps the line confidence as the mean of each character's first step", () => {
    const decoded = ctcGreedy(probs, 0, 6, LABELS);
    expect(decoded.text).toBe("35");
    expect(decoded.confidence).toBeCloseTo((0.7 + 0.98) / 2, 5);
  });

  test("describes each character where it was read most clearly, with its likeliest runners-up and never the blank", () => {
    const [three, five] = ctcGreedy(probs, 0, 6, LABELS).characters;
    expect(three!.probability).toBeCloseTo(0.95, 5);
    expect(three!.alternatives.map((a) => a.character)).toEqual(["8", "5", "a"]);
    expect(three!.alternatives[0]!.probability).toBeCloseTo(0.03, 5);
    expect(five!.probability).toBeCloseTo(0.98, 5);
    expect(five!.alternatives[0]).toEqual({ character: "3", probability: expect.closeTo(0.015, 5) });
  });

  test("decodes a sequence at an offset in a batch and gives no characters for an all-blank one", () => {
    const batch = new Float32Array([...steps([{ blank: 1 }, { blank: 1 }]), ...probs]);
    expect(ctcGreedy(batch, 0, 2, LABELS)).toEqual({ text: "", confidence: 0, characters: [] });
    expect(ctcGreedy(batch, 2 * LABELS.length, 6, LABELS).text).toBe("35");
  });
});
