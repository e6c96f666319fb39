// CLI: bun scripts/corpus/external/generate.ts --seed 42 --size small|full --out DIR
// Adds the families made by LibreOffice, Chromium, Ghostscript and ImageMagick to the corpus
// in DIR (or starts one there). The tools come from install-tools.sh beside this file.
import { parseArgs } from "node:util";
import { writeExternal } from "./corpus.ts";
import { planExternal } from "./plan.ts";
import { MissingToolError } from "./tools.ts";

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
try {
  const labels = await writeExternal(planExternal(seed, values.size), {
    seed,
    out: values.out,
    onProgress: (done, total, label) => process.stderr.write(`external: ${done}/${total} ${label.id} ${label.family} ${label.kind} ${label.documentType}\n`),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`external: ${labels.length} documents added to ${values.out} (${seconds} s)\n`);
} catch (error) {
  if (!(error instanceof MissingToolError)) throw error;
  process.stderr.write(`external: ${error.message}\n`);
  process.exit(1);
}
