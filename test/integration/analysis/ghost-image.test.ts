// The ghost image check through the whole analysis as `scripts/evaluate.ts` runs it: a
// passport page whose portrait was swapped for another face while its ghost image was left
// (made by scripts/corpus/manipulate/ from the seed-7 corpus, test/fixtures/ghost/), and the
// same page genuine, re-saved by an editor. No pixel statistic tells this swap from the
// genuine page (the photo was resized into the template and the page saved once); the two
// faces do. Measured 2026-11-28: the swap 0.74 by ghost_image_mismatch (ghost against
// portrait 0.46, threshold 0.6), the genuine page 0.49 by its editor's name (0.85).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ScoreRow } from "../../../scripts/eval/score-row.ts";
import { describeRow, type EvaluatedFolder, evaluateFolder, raised } from "../../helpers/evaluate-folder.ts";

let run: EvaluatedFolder;
let byKind: Map<string, ScoreRow>;

beforeAll(async () => {
  run = await evaluateFolder(join(import.meta.dir, "../../fixtures/ghost"));
  byKind = new Map(run.rows.map((row) => [row.kind, row]));
}, 300_000);

afterAll(async () => {
  await run?.remove();
});

describe("the ghost image against the portrait", () => {
  test("a portrait swapped with its ghost left is caught by the two faces, over the verdict line", () => {
    const swapped = byKind.get("image_portrait_swap")!;
    expect(raised(swapped).has("ghost_image_mismatch")).toBe(true);
    expect(swapped.flags).toContain("ghost_image_mismatch");
    expect(swapped.score, describeRow(swapped)).toBeGreaterThanOrEqual(0.5);
  });

  test("the same page genuine is not accused: its ghost is its portrait", () => {
    const genuine = byKind.get("genuine_recompressed")!;
    expect(raised(genuine).has("ghost_image_mismatch")).toBe(false);
    expect(genuine.score, describeRow(genuine)).toBeLessThan(0.5);
  });
});
