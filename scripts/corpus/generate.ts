// CLI: bun scripts/corpus/generate.ts --seed 42 --size small|full --out DIR
import { corpusArgs } from "./cli-args.ts";
import { generateCorpus } from "./corpus.ts";

const { seed, size, out } = corpusArgs();
const started = performance.now();
const labels = await generateCorpus({
  seed,
  size,
  out,
  onProgress: (done, total, label) => {
    if (done % 10 === 0 || done === total)
      process.stderr.write(`corpus: ${done}/${total} (${label.kind}, ${label.documentType})\n`);
  },
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(`corpus: ${labels.length} documents in ${out} (${seconds} s)\n`);
