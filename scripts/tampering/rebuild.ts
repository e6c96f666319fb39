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
import { join } from "node:path";
import type { CorpusLabel, GenuineKind } from "../corpus/labels.ts";
import { labelOf } from "../real/label.ts";
import { parseRebuildArgs, rebuildSet } from "../real/rebuild-set.ts";
import { type PublicKind, readTamperingSources, type TamperingSource } from "./sources.ts";

/**
 * A line of labels.jsonl: the corpus label (scripts/corpus/labels.ts), with a forgery's
 * kind in this set's vocabulary and its base. scripts/evaluate.ts groups by kind as an
 * opaque name, so the public kinds get their own rows in its report.
 */
export type TamperingLabel = Omit<CorpusLabel, "kind"> & { kind: GenuineKind | PublicKind; base?: string };

export function tamperingLabelOf(source: TamperingSource, asOf: string): TamperingLabel | undefined {
  const label = labelOf<PublicKind>(source, asOf);
  if (!label || source.label === "genuine") return label;
  return {
    ...label,
    ...(source.base ? { base: source.base } : {}),
    ...(source.regions ? { forgery: { regions: source.regions } } : {}),
  };
}

if (import.meta.main) {
  const { out, mirror } = parseRebuildArgs(
    "usage: bun scripts/tampering/rebuild.ts --out DIR [--mirror /work/.mirror]",
  );
  await rebuildSet(readTamperingSources(join(import.meta.dir, "sources.json")), tamperingLabelOf, out, mirror);
}
