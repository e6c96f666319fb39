// Genuine documents nobody on this project made, published by others (test/fixtures/real/
// SOURCES.md): e-invoices from two libraries, with their XML embedded as ZUGFeRD prescribes,
// and a pay stub and an invoice from Textract's tests. The fusion was never fitted on these
// families (scripts/real/ is a held-out set); none of them may be accused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { FLAG_CLASSES } from "../../../src/analysis/flags.ts";
import { describeRow, type EvaluatedFolder, evaluateFolder } from "../../helpers/evaluate-folder.ts";

let run: EvaluatedFolder;

beforeAll(async () => {
  run = await evaluateFolder(join(import.meta.dir, "../../fixtures/real"));
}, 600_000);

afterAll(async () => {
  await run?.remove();
});

describe("real public documents through the whole analysis", () => {
  test("are analysed whole and typed as financial papers", () => {
    expect(run.evaluation.errors.count).toBe(0);
    expect(run.rows.map((row) => [row.id, row.predictedType])).toEqual([
      ["r0075", "financial"],
      ["r0077", "financial"],
      ["r0104", "financial"],
      ["r0111", "financial"],
    ]);
  });

  test("accuse none of them", () => {
    expect(run.rows.filter((row) => row.score >= 0.5).map(describeRow)).toEqual([]);
  });

  test("list no evidence of alteration on them: an e-invoice's embedded XML is the standard, not active content", () => {
    expect(
      run.rows
        .filter((row) => row.flags.some((f) => FLAG_CLASSES[f] === "alteration" || f === "pdf_active_content"))
        .map(describeRow),
    ).toEqual([]);
  });
});
