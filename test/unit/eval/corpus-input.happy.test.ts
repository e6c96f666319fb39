import { describe, expect, test } from "bun:test";
import type { CorpusLabel, Kind } from "../../../scripts/corpus/labels.ts";
import { selectLabels } from "../../../scripts/eval/corpus-input.ts";

const label = (id: string, kind: Kind, split: "train" | "test"): CorpusLabel => ({
  id,
  file: `${id}.pdf`,
  label: kind.startsWith("genuine") ? "genuine" : "forged",
  kind,
  documentType: "financial",
  format: "pdf",
  generator: "pdf-lib",
  family: "pdf-lib/native",
  split,
  source: "statement",
  history: [],
  asOf: "2025-01-01",
});

const LABELS = [
  label("a1", "genuine_clean", "test"),
  label("a2", "genuine_clean", "test"),
  label("a3", "genuine_clean", "train"),
  label("b1", "pdf_incremental_edit", "test"),
  label("b2", "pdf_incremental_edit", "test"),
  label("c1", "image_retype", "test"),
];

describe("selecting the documents of a run", () => {
  test("keeps the split asked for, in corpus order", () => {
    expect(selectLabels(LABELS, "test").map((l) => l.id)).toEqual(["a1", "a2", "b1", "b2", "c1"]);
    expect(selectLabels(LABELS, "train").map((l) => l.id)).toEqual(["a3"]);
    expect(selectLabels(LABELS, "all")).toHaveLength(6);
  });

  test("with a limit, takes kinds in turn so that a short run still sees every kind", () => {
    expect(selectLabels(LABELS, "test", 3).map((l) => l.id)).toEqual(["a1", "b1", "c1"]);
    expect(selectLabels(LABELS, "test", 4).map((l) => l.id)).toEqual(["a1", "b1", "c1", "a2"]);
  });

  test("a limit above the split's size selects the whole split", () => {
    expect(selectLabels(LABELS, "test", 99)).toHaveLength(5);
  });
});
