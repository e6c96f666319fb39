import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Evaluation } from "../../../scripts/eval/evaluation.ts";
import type { ScoreRow } from "../../../scripts/eval/score-row.ts";
import { startService, type TestService } from "../../helpers/service.ts";
import { evaluateCli } from "../../helpers/evaluate-cli.ts";
import { type CorpusFixture, makeCorpusFixture } from "./corpus-fixture.ts";

let corpus: CorpusFixture;
let service: TestService;

beforeAll(async () => {
  [corpus, service] = await Promise.all([makeCorpusFixture(), startService()]);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await rm(corpus.dir, { recursive: true, force: true });
});

/**
 * The rows without what only one side can measure: latency, and the fusion features (in process
 * only).
 */
const scoresOf = async (out: string) =>
  (await readFile(join(out, "scores.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => {
      // Features and the prior-weighted flags' strengths come from the detectors, which only the
      // in-process run has.
      const { features: _features, priorStrengths: _prior, ...row } = JSON.parse(line) as ScoreRow;
      return { ...row, latencyMs: 0 };
    });

describe("the evaluation through the running service (--url, --key)", () => {
  const local = () => join(corpus.dir, "local");
  const http = () => join(corpus.dir, "http");
  let key: string;

  beforeAll(async () => {
    key = await service.createKey("--mode", "test");
    const [inProcess, overHttp] = await Promise.all([
      evaluateCli(["--corpus", corpus.dir, "--split", "all", "--out", local()], {
        DOCVERIFY_DATA_DIR: service.dataDir,
      }),
      evaluateCli(["--corpus", corpus.dir, "--split", "all", "--out", http(), "--url", service.url, "--key", key]),
    ]);
    expect(inProcess.exitCode).toBe(0);
    expect(overHttp.exitCode).toBe(0);
    expect(overHttp.stdout).toContain(`analysis: HTTP ${service.url}`);
  }, 90_000);

  test("scores every document exactly as the in-process code path does, evidence included", async () => {
    const overHttp = await scoresOf(http());
    // The public result carries no detector facts, so only the in-process run can train the fusion.
    const written = await readFile(join(http(), "scores.jsonl"), "utf8");
    expect(written.includes('"features"') || written.includes('"priorStrengths"')).toBe(false);
    expect(overHttp).toHaveLength(corpus.labels.length - 1);
    expect(overHttp).toEqual(await scoresOf(local()));
  });

  test("reports the error code the service answered for a document it refused", async () => {
    const evaluation = JSON.parse(await readFile(join(http(), "evaluation.json"), "utf8")) as Evaluation;
    expect(evaluation.errors.documents.map((d) => [d.file, d.code])).toEqual([["cut.pdf", "UNSUPPORTED_FORMAT"]]);
  });
});
