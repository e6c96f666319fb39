// CLI: bun scripts/corpus/external/make-fixtures.ts
// Writes the committed fixture set test/fixtures/families/ (CI has none of the external tools):
// a few documents of each external family from the small plan, seed 42, genuine and forged,
// with the benign histories that most risk a false accusation (a Ghostscript re-distil, an
// ImageMagick scan, a photo passed through a messaging app). About 1 MB in all.
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeExternal } from "./corpus.ts";
import { type Method, type PlannedExternal, planExternal } from "./plan.ts";

const OUT = join(import.meta.dir, "../../../test/fixtures/families");
const SEED = 42;
const MAX_BYTES = 1.5 * 1024 * 1024;

interface Pick {
  family: string;
  method: Method;
  documentType: PlannedExternal["documentType"];
  variant: number;
}

const PICKS: Pick[] = [
  { family: "libreoffice/native", method: "genuine", documentType: "financial", variant: 0 },
  { family: "libreoffice/native", method: "genuine", documentType: "utility_bill", variant: 1 },
  { family: "libreoffice/native", method: "source-edit", documentType: "financial", variant: 0 },
  { family: "libreoffice/native", method: "pdf-edit", documentType: "financial", variant: 0 },
  { family: "libreoffice/native", method: "editor-name", documentType: "financial", variant: 0 },
  { family: "chromium/native", method: "genuine", documentType: "financial", variant: 0 },
  { family: "chromium/native", method: "genuine", documentType: "financial", variant: 2 },
  { family: "chromium/native", method: "source-edit", documentType: "financial", variant: 0 },
  { family: "chromium/native", method: "pdf-edit", documentType: "financial", variant: 0 },
  { family: "chromium/native", method: "overlay", documentType: "financial", variant: 0 },
  { family: "ghostscript/native", method: "genuine", documentType: "financial", variant: 0 },
  { family: "ghostscript/native", method: "pdf-edit", documentType: "financial", variant: 0 },
  { family: "imagemagick/scan", method: "genuine", documentType: "financial", variant: 0 },
  { family: "imagemagick/photo", method: "messaging", documentType: "financial", variant: 0 },
];

const familyName = (d: PlannedExternal) => `${d.family.generator}/${d.family.capture}`;

const plan = planExternal(SEED, "small");
const chosen = PICKS.map((p) => {
  const doc = plan.find(
    (d) =>
      familyName(d) === p.family &&
      d.recipe.method === p.method &&
      d.documentType === p.documentType &&
      d.variant === p.variant,
  );
  if (!doc) throw new Error(`the small plan has no ${p.family} ${p.method} ${p.documentType} #${p.variant}`);
  return doc;
});

await rm(OUT, { recursive: true, force: true });
const labels = await writeExternal(chosen, {
  seed: SEED,
  out: OUT,
  onProgress: (done, total, l) => process.stderr.write(`fixtures: ${done}/${total} ${l.id} ${l.family} ${l.kind}\n`),
});
let bytes = 0;
for (const name of await readdir(OUT)) bytes += (await stat(join(OUT, name))).size;
if (bytes > MAX_BYTES) throw new Error(`fixtures take ${bytes} bytes, over ${MAX_BYTES}: pick fewer images`);
process.stderr.write(`fixtures: ${labels.length} documents, ${(bytes / 1024).toFixed(0)} KiB in ${OUT}\n`);
