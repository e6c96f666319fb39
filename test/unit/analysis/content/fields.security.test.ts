// Reading a card's labels on hostile lines: the search for a label read with one letter wrong
// builds a string per possible edit, so it must never run on a run longer than a label.
import { describe, expect, test } from "bun:test";
import { labelledValues } from "../../../../src/analysis/content/fields.ts";
import { page, readingsOf } from "./fixtures.ts";

describe("labels on a hostile page", () => {
  test("a label line followed by a hundred thousand letters is bounded and answers quickly", () => {
    const lines = [
      { text: `Nom / ${"SURNAMX".repeat(15_000)}`, y: 100 },
      { text: "ERIKSSON", y: 125 },
    ];
    const started = performance.now();
    const values = labelledValues(page(lines, "pdf"));
    expect(performance.now() - started).toBeLessThan(5_000);
    // The rest is no label, so it may be the value: nothing is taken from the line below.
    expect(values).toEqual([]);
  });

  test("a line of five thousand French card titles, each an N the number may follow, answers quickly", () => {
    // The number glued to the title is looked for only within a document number's length of the
    // line's end: an unbounded look ahead from each N would read the rest of the line each time.
    const text = `${"CARTENATIONALEDIDENTITEN".repeat(5_000)}${"A".repeat(50_000)}:`;
    const started = performance.now();
    expect(labelledValues(page([{ text, y: 100 }], "pdf"))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("a thousand label lines whose every letter the recogniser doubted stay bounded", () => {
    // Each unsure letter with a letter as runner-up is another reading of the line to try: at
    // most a dozen are tried per line, whatever its length.
    const text = "Date de naissance / Dateofbinth Xqzwv";
    const doubted = { probability: 0.5, alternatives: [{ character: "q", probability: 0.4 }] };
    const characters = readingsOf(text, Object.fromEntries([...text].map((_, i) => [i, doubted])));
    const lines = Array.from({ length: 1_000 }, (_, i) => ({ text, y: i * 30, confidence: 0.5, characters }));
    const started = performance.now();
    expect(labelledValues(page(lines))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test("a thousand label lines each with a misread second label stay bounded", () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => ({ text: "Date de naissance / Dateofbinth", y: i * 30 }));
    const started = performance.now();
    labelledValues(page(lines, "pdf"));
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
