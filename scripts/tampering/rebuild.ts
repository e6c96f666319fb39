// Rebuilds the public-tampering set listed in sources.json:
//
//   bun scripts/tampering/rebuild.ts --out DIR [--mirror /work/.mirror]
//
// Fetching, sha256 checks and file naming are the real-document set's (scripts/real), so
// both sets read their repositories the same way; what differs is the label: a forgery
// keeps this set's own kind (public_portrait_swap, ...), the id of the genuine image it was
// made from (base) and the changed regions where the source gives them. Documents are
// written in manifest order, which puts the largest images last. Progress and one line per
// failed document on stderr; exit status 1 if any document failed, 2 on bad arguments.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CorpusLabel, GenuineKind } from "../corpus/labels.ts";
import { fetchSource } from "../real/fetch-source.ts";
import { fileOf, labelOf } from "../real/label.ts";
import { asRealSource, type PublicKind, readTamperingSources, type TamperingSource } from "./sources.ts";

/**
 * A line of labels.jsonl: the corpus label (scripts/corpus/labels.ts), with a forgery's
 * kind in this set's vocabulary and its base. scripts/evaluate.ts groups by kind as an
 * opaque name, so the public kinds get their own rows in its report.
 */
export type TamperingLabel = Omit<CorpusLabel, "kind"> & { kind: GenuineKind | PublicKind; base?: string };

const USAGE = "usage: bun scripts/tampering/rebuild.ts --out DIR [--mirror /work/.mirror]";

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

export function tamperingLabelOf(source: TamperingSource, asOf: string): TamperingLabel | undefined {
  const label = labelOf(asRealSource(source), asOf);
  if (!label) return undefined;
  if (source.label === "genuine") return { ...label, kind: label.kind as GenuineKind };
  return {
    ...label,
    kind: source.kind as PublicKind,
    ...(source.base ? { base: source.base } : {}),
    ...(source.regions ? { forgery: { regions: source.regions } } : {}),
  };
}

if (import.meta.main) {
  const { out, mirror } = parse();
  const sources = readTamperingSources(join(import.meta.dir, "sources.json"));
  // Like the real set, these documents are judged as of the day the set is rebuilt.
  const asOf = new Date().toISOString().slice(0, 10);
  await mkdir(out, { recursive: true });

  const labels: TamperingLabel[] = [];
  const failed: string[] = [];
  for (const [i, source] of sources.entries()) {
    const step = `[${i + 1}/${sources.length}] ${source.id} ${source.repo}:${source.path}`;
    try {
      const { bytes, from } = await fetchSource(asRealSource(source), mirror);
      await writeFile(join(out, fileOf(asRealSource(source))), bytes);
      const label = tamperingLabelOf(source, asOf);
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
}
