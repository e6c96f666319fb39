// CLI: bun scripts/corpus/generate.ts --seed 42 --size small|full --out DIR
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "42" },
    size: { type: "string", default: "small" },
    out: { type: "string" },
  },
});
const seed = Number(values.seed);
if (!Number.isInteger(seed)) throw new Error("--seed must be an integer");
if (values.size !== "small" && values.size !== "full") throw new Error("--size must be small or full");
if (!values.out) throw new Error("--out DIR is required");

const started = performance.now();
const labels = await generateCorpus({
  seed,
  size: values.size,
  out: values.out,
  onProgress: (done, total, label) => {
    if (done % 10 === 0 || done === total) process.stderr.write(`corpus: ${done}/${total} (${label.kind}, ${label.documentType})\n`);
  },
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(`corpus: ${labels.length} documents in ${values.out} (${seconds} s)\n`);
