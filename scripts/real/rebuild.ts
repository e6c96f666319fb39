// Rebuilds the set of real public documents listed in sources.json:
//
//   bun scripts/real/rebuild.ts --out DIR [--mirror /work/.mirror]
//
// Each document comes from the mirror's bare git directory of its repository when --mirror
// is given and holds it, else from raw.githubusercontent.com at the pinned commit; its
// sha256 is checked, and it is written as DIR/<id>.<ext> with DIR/labels.jsonl in the
// corpus label format. Progress and one line per failed document on stderr; exit status 1
// if any document failed, 2 on bad arguments.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CorpusLabel } from "../corpus/labels.ts";
import { fetchSource } from "./fetch-source.ts";
import { fileOf, labelOf } from "./label.ts";
import { readSources } from "./sources.ts";

const USAGE = "usage: bun scripts/real/rebuild.ts --out DIR [--mirror /work/.mirror]";

function parse(): { out: string; mirror?: string } {
  try {
    const { values } = parseArgs({ args: Bun.argv.slice(2), options: { out: { type: "string" }, mirror: { type: "string" } } });
    if (!values.out) throw new Error("--out DIR is required");
    return { out: values.out, mirror: values.mirror };
  } catch (error) {
    process.stderr.write(`rebuild: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const { out, mirror } = parse();
const sources = readSources(join(import.meta.dir, "sources.json"));
// Real documents carry real dates: they are judged as of the day the set is rebuilt.
const asOf = new Date().toISOString().slice(0, 10);
await mkdir(out, { recursive: true });

const labels: CorpusLabel[] = [];
const failed: string[] = [];
for (const [i, source] of sources.entries()) {
  const step = `[${i + 1}/${sources.length}] ${source.id} ${source.repo}:${source.path}`;
  try {
    const { bytes, from } = await fetchSource(source, mirror);
    await writeFile(join(out, fileOf(source)), bytes);
    const label = labelOf(source, asOf);
    if (label) labels.push(label);
    else process.stderr.write(`${step}: documentType unknown, left out of labels.jsonl\n`);
    process.stderr.write(`${step} (${bytes.length} bytes from ${from})\n`);
  } catch (error) {
    failed.push(source.id);
    process.stderr.write(`${step}: FAILED: ${(error as Error).message}\n`);
  }
}

await writeFile(join(out, "labels.jsonl"), labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
process.stderr.write(`rebuild: ${sources.length - failed.length} of ${sources.length} documents in ${out}, ${labels.length} labelled\n`);
if (failed.length > 0) {
  process.stderr.write(`rebuild: failed: ${failed.join(", ")}\n`);
  process.exit(1);
}
