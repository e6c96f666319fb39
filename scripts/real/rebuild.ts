// Rebuilds the set of real public documents listed in sources.json:
//
//   bun scripts/real/rebuild.ts --out DIR [--mirror /work/.mirror]
//
// Each document comes from the mirror's bare git directory of its repository when --mirror
// is given and holds it, else from raw.githubusercontent.com at the pinned commit; its
// sha256 is checked, and it is written as DIR/<id>.<ext> with DIR/labels.jsonl in the
// corpus label format. Progress and one line per failed document on stderr; exit status 1
// if any document failed, 2 on bad arguments.
import { join } from "node:path";
import { labelOf } from "./label.ts";
import { parseRebuildArgs, rebuildSet } from "./rebuild-set.ts";
import { readSources } from "./sources.ts";

const { out, mirror } = parseRebuildArgs("usage: bun scripts/real/rebuild.ts --out DIR [--mirror /work/.mirror]");
await rebuildSet(readSources(join(import.meta.dir, "sources.json")), labelOf, out, mirror);
