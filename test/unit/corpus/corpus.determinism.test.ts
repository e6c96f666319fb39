import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { generateDocument } from "../../../scripts/corpus/corpus.ts";
import { planCorpus } from "../../../scripts/corpus/plan.ts";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("corpus reproducibility", () => {
  test("the same seed plans the same documents and the same split; another seed another split", () => {
    expect(planCorpus(42, "small")).toEqual(planCorpus(42, "small"));
    const a = planCorpus(42, "full").map((d) => d.split);
    const b = planCorpus(7, "full").map((d) => d.split);
    expect(a).not.toEqual(b);
  });

  test("the full size holds at least 600 documents, about 70% of each kind in train", () => {
    const plan = planCorpus(42, "full");
    expect(plan.length).toBeGreaterThanOrEqual(600);
    for (const kind of new Set(plan.map((d) => d.kind))) {
      const ofKind = plan.filter((d) => d.kind === kind);
      const train = ofKind.filter((d) => d.split === "train").length / ofKind.length;
      expect(Math.abs(train - 0.7)).toBeLessThan(0.1);
    }
  });

  test("the same seed gives byte-identical documents (PDF edits, photos, forgeries)", async () => {
    const plan = planCorpus(42, "small");
    const subset = [
      "pdf_incremental_edit",
      "pdf_editor_metadata",
      "genuine_resaved",
      "genuine_messaging",
      "image_splice_portrait",
      "mrz_altered_bad_checksum",
    ].map(
      (kind) =>
        plan.find(
          (d) =>
            d.kind === kind &&
            (kind.startsWith("pdf_") || kind === "genuine_resaved" || d.documentType !== "financial"),
        )!,
    );
    for (const doc of subset) {
      const first = await generateDocument(42, doc);
      const second = await generateDocument(42, doc);
      expect(sha256(second.bytes)).toBe(sha256(first.bytes));
      expect(second.label).toEqual(first.label);
    }
  }, 60_000);
});
