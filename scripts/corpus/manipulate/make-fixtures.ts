// CLI: bun scripts/corpus/manipulate/make-fixtures.ts
// Writes the committed fixture set test/fixtures/manipulations/ (CI has no Python or OpenCV):
// one document of each manipulated forgery kind and each genuine journey, from the small plan
// on a sample of bases, seed 42; only the manipulated documents and their labels are kept.
// Under 3 MB in all.
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kind } from "../labels.ts";
import { writeBaseSample } from "./base-sample.ts";
import { writeManipulated } from "./corpus.ts";
import type { Path, PlannedManipulation } from "./plan.ts";

const OUT = join(import.meta.dir, "../../../test/fixtures/manipulations");
const SEED = 42;
const MAX_BYTES = 3 * 1024 * 1024;

// Every forgery kind and every path at least once, a finance document among them, and each
// path's genuine counterpart.
const PICKS: Array<{ kind: Kind; path: Path; documentType?: PlannedManipulation["documentType"] }> = [
  { kind: "image_portrait_swap", path: "editor" },
  { kind: "image_inpaint_retype", path: "editor" },
  { kind: "image_paste_field", path: "print_photo" },
  { kind: "image_inpaint_retype", path: "print_photo", documentType: "financial" },
  { kind: "image_portrait_swap", path: "screen_recapture" },
  { kind: "genuine_recompressed", path: "editor" },
  { kind: "genuine_print_photo", path: "print_photo" },
  { kind: "genuine_screen_recapture", path: "screen_recapture" },
];

function select(plan: PlannedManipulation[]): PlannedManipulation[] {
  return PICKS.map((p) => {
    const doc = plan.find(
      (d) => d.kind === p.kind && d.path === p.path && (!p.documentType || d.documentType === p.documentType),
    );
    if (!doc) throw new Error(`the small plan has no ${p.kind} through ${p.path}`);
    return doc;
  });
}

const work = await mkdtemp(join(tmpdir(), "docverify-manipulate-fixtures-"));
try {
  await writeBaseSample(SEED, work);
  const labels = await writeManipulated({
    seed: SEED,
    size: "small",
    out: work,
    select,
    onProgress: (done, total, l) => process.stderr.write(`fixtures: ${done}/${total} ${l.id} ${l.family} ${l.kind}\n`),
  });
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  for (const l of labels) await copyFile(join(work, l.file), join(OUT, l.file));
  await writeFile(join(OUT, "labels.jsonl"), `${labels.map((l) => JSON.stringify(l)).join("\n")}\n`);
  let bytes = 0;
  for (const name of await readdir(OUT)) bytes += (await stat(join(OUT, name))).size;
  if (bytes > MAX_BYTES)
    throw new Error(`fixtures take ${bytes} bytes, over ${MAX_BYTES}: pick fewer or smaller images`);
  process.stderr.write(`fixtures: ${labels.length} documents, ${(bytes / 1024).toFixed(0)} KiB in ${OUT}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
