// Detection quality of docverify on the labelled corpus (scripts/corpus):
//
//   bun scripts/evaluate.ts --corpus DIR [--split test|train|all] [--out DIR]
//       [--url http://host:port --key svc_test_...] [--concurrency N] [--limit N]
//       [--generate small|full --seed N]
//
// Without --url the documents go through the service's own code path in this process
// (validateDocument → analyzer.analyze); with --url and a test key, through a running
// service over HTTP. Prints the report on stdout, progress on stderr, and writes
// evaluation.json, scores.jsonl, roc.png and scores.png into --out (default DIR/evaluation).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { prepareRuntime } from "../src/runtime/index.ts";

const USAGE =
  "usage: bun scripts/evaluate.ts --corpus DIR [--split test|train|all] [--out DIR] [--url URL --key svc_test_...] [--concurrency N] [--limit N] [--generate small|full --seed N]";

function fail(message: string): never {
  process.stderr.write(`evaluate: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function positiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) fail(`--${name} must be a whole number of at least 1, got "${raw}"`);
  return Number(raw);
}

const { values } = (() => {
  try {
    return parseArgs({
      args: Bun.argv.slice(2),
      options: {
        corpus: { type: "string" },
        split: { type: "string", default: "test" },
        out: { type: "string" },
        url: { type: "string" },
        key: { type: "string" },
        concurrency: { type: "string", default: "2" },
        limit: { type: "string" },
        generate: { type: "string" },
        seed: { type: "string" },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
})();

if (!values.corpus) fail("--corpus DIR is required");
const split = values.split;
if (split !== "test" && split !== "train" && split !== "all")
  fail(`--split must be test, train or all, got "${split}"`);
if ((values.url === undefined) !== (values.key === undefined)) fail("--url and --key go together");
// A test key is never billed and its results are marked sandbox: an evaluation must not cost a
// customer.
if (values.key !== undefined && !values.key.startsWith("svc_test_")) fail("--key must be a test key (svc_test_...)");
if (values.generate !== undefined && values.generate !== "small" && values.generate !== "full")
  fail(`--generate must be small or full, got "${values.generate}"`);
if ((values.generate === undefined) !== (values.seed === undefined)) fail("--generate and --seed go together");
if (values.seed !== undefined && !/^\d+$/.test(values.seed))
  fail(`--seed must be a whole number, got "${values.seed}"`);

const corpus = values.corpus;
const concurrency = positiveInteger("concurrency", values.concurrency)!;
const limit = positiveInteger("limit", values.limit);
const generate = values.generate ? { size: values.generate as "small" | "full", seed: Number(values.seed) } : undefined;
const { url, key } = values;

// sharp and mupdf load their native code as they are imported: the runtime comes first.
await prepareRuntime();
const { runEvaluation } = await import("./eval/run-evaluation.ts");
const { formatEvaluation } = await import("./eval/format-report.ts");

try {
  const out = values.out ?? join(corpus, "evaluation");
  const evaluation = await runEvaluation({
    corpus,
    split,
    out,
    concurrency,
    limit,
    generate,
    backend: async () =>
      url && key
        ? (await import("./eval/backends/http.ts")).createHttpBackend(url, key)
        : (await import("./eval/backends/local.ts")).createLocalBackend(process.env),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(formatEvaluation(evaluation));
  process.stderr.write(`evaluate: wrote evaluation.json, scores.jsonl, roc.png and scores.png to ${out}\n`);
} catch (error) {
  process.stderr.write(`evaluate: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
