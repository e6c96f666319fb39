// CLI: bun scripts/corpus/manipulate/generate.ts --seed 42 --size small|full --out DIR
// Adds to the corpus in DIR (made first by scripts/corpus/generate.ts with the same seed) the
// families a fraudster makes today from a genuine document image: a portrait swapped, a field
// inpainted and retyped, a field pasted from another card; each kept as the editor saved it,
// or printed and photographed, or photographed off a screen; and the same journeys for genuine
// documents. The pixel work needs Python's OpenCV (install-tools.sh beside this file).
import { corpusArgs } from "../cli-args.ts";
import { writeManipulated } from "./corpus.ts";
import { MissingToolError } from "./pixel-worker.ts";

const { seed, size, out } = corpusArgs();
const started = performance.now();
try {
  const labels = await writeManipulated({
    seed,
    size,
    out,
    onProgress: (done, total, label) =>
      process.stderr.write(
        `manipulate: ${done}/${total} ${label.id} ${label.family} ${label.kind} ${label.documentType}\n`,
      ),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`manipulate: ${labels.length} documents added to ${out} (${seconds} s)\n`);
} catch (error) {
  if (!(error instanceof MissingToolError)) throw error;
  process.stderr.write(`manipulate: ${error.message}\n`);
  process.exit(1);
}
