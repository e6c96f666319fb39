import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { FLAGS } from "../../../src/analysis/flags.ts";
import { FEATURE_NAMES } from "../../../src/analysis/fusion/features.ts";
import type { CorpusLabel } from "../../../scripts/corpus/labels.ts";
import type { Evaluation } from "../../../scripts/eval/evaluation.ts";
import type { ScoreRow } from "../../../scripts/eval/score-row.ts";
import { evaluateCli } from "../../helpers/evaluate-cli.ts";
import { makeCorpusFixture } from "./corpus-fixture.ts";

let dir: string;
let labels: CorpusLabel[];

beforeAll(async () => {
  ({ dir, labels } = await makeCorpusFixture());
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const evaluate = (...args: string[]) => evaluateCli(args, { DOCVERIFY_DATA_DIR: dir });

describe("bun scripts/evaluate.ts on a corpus folder", () => {
  let run: Awaited<ReturnType<typeof evaluate>>;
  const out = () => join(dir, "out");

  beforeAll(async () => {
    run = await evaluate("--corpus", dir, "--split", "all", "--out", out(), "--concurrency", "2");
  }, 60_000);

  test("finishes, printing the report on stdout and progress on stderr", () => {
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`split all, ${labels.length} documents (${labels.length - 1} analysed, 1 failed)`);
    expect(run.stdout).toContain("Targets");
    expect(run.stderr).toContain(`evaluate: ${labels.length}/${labels.length} (100%), 1 failed`);
  });

  test("counts the document intake refused, with its kind, file and error code", async () => {
    const evaluation = JSON.parse(await readFile(join(out(), "evaluation.json"), "utf8")) as Evaluation;
    expect(evaluation.errors.count).toBe(1);
    expect(evaluation.errors.documents[0]).toMatchObject({
      file: "cut.pdf",
      kind: "pdf_incremental_edit",
      code: "UNSUPPORTED_FORMAT",
    });
    expect(run.stdout).toMatch(/pdf_incremental_edit\s+cut\.pdf\s+UNSUPPORTED_FORMAT/);
  });

  test("writes one scores.jsonl line per analysed document, with its label beside the verdict", async () => {
    const rows = (await readFile(join(out(), "scores.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ScoreRow);
    expect(rows.map((row) => row.file)).toEqual(labels.slice(0, 4).map((label) => label.file));
    for (const row of rows) {
      expect(row.score).toBeGreaterThanOrEqual(0);
      expect(row.score).toBeLessThanOrEqual(1);
      expect(["low", "medium", "high"]).toContain(row.confidence);
      expect(row.latencyMs).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(row.evidence)).toBe(true);
      // The fusion trainer learns from these: one value per named feature.
      expect(row.features).toHaveLength(FEATURE_NAMES.length);
    }
    for (const flag of rows.flatMap((row) => [...row.flags, ...row.evidence.map((evidence) => evidence.flag)]))
      expect(FLAGS).toContain(flag);
  });

  test("writes evaluation.json with the same figures it printed", async () => {
    const evaluation = JSON.parse(await readFile(join(out(), "evaluation.json"), "utf8")) as Evaluation;
    expect(evaluation.run.documents).toBe(labels.length);
    expect(evaluation.overall.genuine + evaluation.overall.forged).toBe(4);
    expect(run.stdout).toContain(`ROC AUC ${evaluation.roc.auc === null ? "n/a" : evaluation.roc.auc.toFixed(3)}`);
    expect(evaluation.targets.map((target) => target.id)).toEqual([
      "auc",
      "aucAllKinds",
      "detectionAt5PerKind",
      "manipulationAt5SameCapture",
      "documentTypeAccuracy",
      "genuineFamilyMaxFpr",
    ]);
  });

  test("draws the ROC curve and the score histogram as PNG", async () => {
    for (const file of ["roc.png", "scores.png"]) {
      const meta = await sharp(join(out(), file)).metadata();
      expect(meta.format).toBe("png");
      expect([meta.width, meta.height]).toEqual([720, 560]);
    }
  });
});

describe("bun scripts/evaluate.ts refuses", () => {
  test("a run without --corpus, as bad usage", async () => {
    const run = await evaluate();
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("--corpus DIR is required");
  });

  test("a live key, which would be billed", async () => {
    const run = await evaluate("--corpus", dir, "--url", "http://127.0.0.1:1", "--key", "svc_live_x");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("test key");
  });

  test("a folder without labels.jsonl unless asked to generate one", async () => {
    const empty = await mkdtemp(join(tmpdir(), "evaluate-empty-"));
    const run = await evaluate("--corpus", empty);
    await rm(empty, { recursive: true, force: true });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("has no labels.jsonl");
    expect(run.stderr).toContain("--generate small|full --seed N");
  });
});
