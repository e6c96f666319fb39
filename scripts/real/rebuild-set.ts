// The loop both pinned-file sets are rebuilt by (scripts/real for the real documents,
// scripts/tampering for the public forgeries): each entry fetched and checked, written as
// DIR/<id>.<ext>, its label collected into DIR/labels.jsonl. The sets differ only in their
// manifest and in how an entry becomes a label, so those are what the caller hands in.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fetchSource, type PinnedFile } from "./fetch-source.ts";
import { fileOf } from "./label.ts";
import type { RealSource } from "./sources.ts";

/** --out DIR [--mirror DIR], or the usage on stderr and exit status 2. */
export function parseRebuildArgs(usage: string): { out: string; mirror?: string } {
  try {
    const { values } = parseArgs({
      args: Bun.argv.slice(2),
      options: { out: { type: "string" }, mirror: { type: "string" } },
    });
    if (!values.out) throw new Error("--out DIR is required");
    return { out: values.out, mirror: values.mirror };
  } catch (error) {
    process.stderr.write(`rebuild: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}

type Entry = PinnedFile & Pick<RealSource, "id" | "format">;

/**
 * Writes every entry in manifest order; progress and one line per failed entry on stderr,
 * exit status 1 if any failed. An entry whose labelOf gives undefined (no corpus document
 * type) is written but left out of labels.jsonl.
 */
export async function rebuildSet<S extends Entry, L>(
  sources: S[],
  labelOf: (source: S, asOf: string) => L | undefined,
  out: string,
  mirror?: string,
): Promise<void> {
  // Public documents carry real dates: they are judged as of the day the set is rebuilt.
  const asOf = new Date().toISOString().slice(0, 10);
  await mkdir(out, { recursive: true });

  const labels: L[] = [];
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

  await writeFile(join(out, "labels.jsonl"), `${labels.map((l) => JSON.stringify(l)).join("\n")}\n`);
  process.stderr.write(
    `rebuild: ${sources.length - failed.length} of ${sources.length} documents in ${out}, ${labels.length} labelled\n`,
  );
  if (failed.length > 0) {
    process.stderr.write(`rebuild: failed: ${failed.join(", ")}\n`);
    process.exit(1);
  }
}
