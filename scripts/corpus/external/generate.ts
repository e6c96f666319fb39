// CLI: bun scripts/corpus/external/generate.ts --seed 42 --size small|full --out DIR
// Adds the families made by LibreOffice, Chromium, Ghostscript and ImageMagick to the corpus
// in DIR (or starts one there). The tools come from install-tools.sh beside this file.
import { corpusArgs } from "../cli-args.ts";
import { writeExternal } from "./corpus.ts";
import { planExternal } from "./plan.ts";
import { MissingToolError } from "./tools.ts";

const { seed, size, out } = corpusArgs();
const started = performance.now();
try {
  const labels = await writeExternal(planExternal(seed, size), {
    seed,
    out,
    onProgress: (done, total, label) =>
      process.stderr.write(
        `external: ${done}/${total} ${label.id} ${label.family} ${label.kind} ${label.documentType}\n`,
      ),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`external: ${labels.length} documents added to ${out} (${seconds} s)\n`);
} catch (error) {
  if (!(error instanceof MissingToolError)) throw error;
  process.stderr.write(`external: ${error.message}\n`);
  process.exit(1);
}
