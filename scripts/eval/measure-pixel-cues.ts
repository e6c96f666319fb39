// How the portrait checks and recapture cues score on a labelled corpus: per image document,
// the sidecar's decode, OCR lines, forensic graph and cue measures, written one JSON line each
// (OUT/cues.jsonl); then, per family and kind, how often each cue passes its threshold on
// genuine and forged documents, and per template how often the portrait is found repeated in a
// ghost image. OCR lines are cached in OUT/lines/ so that a rerun after a
// change to a measure costs the graph and the cues alone.
// Run: bun scripts/eval/measure-pixel-cues.ts --corpus DIR --out OUT [--only-identity] \
//   [--id-prefix m] [--report-only]
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  GHOST_THRESHOLDS,
  GREY_DOCUMENT_THRESHOLDS,
  greyDocumentScore,
  type PixelCues,
  PORTRAIT_THRESHOLDS,
  RECAPTURE_THRESHOLDS,
  measureCues,
  portraitExcess,
  recaptureScores,
} from "../../sidecar/cues/index.ts";
import { createForensicsGraph } from "../../sidecar/forensics/index.ts";
import { BLOCK } from "../../sidecar/forensics/graph-spec.ts";
import { prepare } from "../../sidecar/forensics/prepare.ts";
import type { CorpusLabel } from "../corpus/labels.ts";
import { IDENTITY, MEASURE_OPTIONS, imageLabels, imagePages } from "./image-pages.ts";
import { readJsonl, writeJsonl } from "./jsonl.ts";
import { groupBy } from "./metrics.ts";

const { values } = parseArgs({ options: MEASURE_OPTIONS });
if (!values.corpus || !values.out) throw new Error("usage: --corpus DIR --out OUT");

type Label = Pick<CorpusLabel, "id" | "file" | "label" | "kind" | "family" | "documentType" | "format" | "source">;
interface Row extends Omit<Label, "file" | "format"> {
  cues: PixelCues;
  ms: number;
}

const labels = imageLabels({ ...values, corpus: values.corpus });
const rowsFile = join(values.out, "cues.jsonl");

if (!values["report-only"]) {
  const graph = await createForensicsGraph({ device: "cpu" });
  const rows: Row[] = [];
  for await (const { label, page, lines } of imagePages(values.corpus, labels, join(values.out, "lines"))) {
    const prepared = prepare(page.image.data, page.image.width, page.image.height, 90);
    const maps = await graph.run(prepared.rgb, prepared.width, prepared.height, prepared.elaSteps);
    const started = performance.now();
    const cues = measureCues(prepared.rgb, prepared.width, prepared.height, maps, lines, BLOCK);
    const ms = performance.now() - started;
    const { file: _f, format: _fm, ...rest } = label;
    rows.push({ ...rest, cues, ms: Math.round(ms) } satisfies Row);
  }
  await writeJsonl(rowsFile, rows);
  await graph.close();
}

// Per family and kind: documents, portraits judged, portrait cue fired, recapture cue fired,
// portrait repeated in a ghost image.
const rows = await readJsonl<Row>(rowsFile);
const judged = (r: Row) =>
  r.cues.portrait.innerBlocks > 0 &&
  r.cues.portrait.restBlocks > 0 &&
  (r.cues.portrait.noise !== 0 || r.cues.portrait.sharpness !== 0);
const portraitFired = (r: Row) =>
  IDENTITY.has(r.documentType) && judged(r) && portraitExcess(r.cues.portrait).ratio >= 1;
const ghostRepeated = (r: Row) => r.cues.ghost.repeated;
// Judged on identity documents only, as the API judges it (src/analysis/pixel/recapture.ts).
const greyCopyFired = (r: Row) => IDENTITY.has(r.documentType) && greyDocumentScore(r.cues.greyDocument) >= 1;
const recaptureFired = (r: Row) =>
  r.cues.recapture.patches > 0 && Math.max(...Object.values(recaptureScores(r.cues.recapture))) >= 1;
const groups = groupBy(rows, (r) => `${r.label}\t${r.family ?? "-"}\t${r.kind}`);
console.log(
  `thresholds: portrait ${JSON.stringify(PORTRAIT_THRESHOLDS)}, recapture ${JSON.stringify(RECAPTURE_THRESHOLDS)}, grey copy ${JSON.stringify(GREY_DOCUMENT_THRESHOLDS)}`,
);
console.log(
  "label\tfamily\tkind\tdocs\tidentity\tportraitJudged\tportraitFired\trecaptureFired\tghostRepeated\tgreyCopyFired",
);
for (const [key, group] of [...groups].sort()) {
  const identity = group.filter((r) => IDENTITY.has(r.documentType));
  console.log(
    `${key}\t${group.length}\t${identity.length}\t${identity.filter(judged).length}\t${group.filter(portraitFired).length}\t${group.filter(recaptureFired).length}\t${group.filter(ghostRepeated).length}\t${group.filter(greyCopyFired).length}`,
  );
}
// The ghost search by template: a template that prints a ghost should show the portrait repeated
// on its genuine cards and not where the portrait was swapped or spliced.
const swapped = (r: Row) => r.kind.includes("portrait");
console.log(`ghost image, thresholds ${JSON.stringify(GHOST_THRESHOLDS)}: repeated / documents`);
console.log("template\tgenuine\tportrait swapped or spliced\tother forgeries");
const templates = groupBy(
  rows.filter((r) => IDENTITY.has(r.documentType)),
  (r) => r.source,
);
for (const [source, group] of [...templates].sort()) {
  const cell = (rs: Row[]) => `${rs.filter(ghostRepeated).length}/${rs.length}`;
  const forged = group.filter((r) => r.label === "forged");
  console.log(
    `${source}\t${cell(group.filter((r) => r.label === "genuine"))}\t${cell(forged.filter(swapped))}\t${cell(forged.filter((r) => !swapped(r)))}`,
  );
}
const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
console.log(`cue time: median ${ms[ms.length >> 1]} ms, max ${ms[ms.length - 1]} ms per page (${rows.length} pages)`);
