// How the residual line traces (error level, noise residual) raise lines on a labelled corpus:
// per image document, the sidecar's decode, OCR lines and pixel forensics as served
// (analyzePixels), written one JSON line each (OUT/traces.jsonl): each trace's reliability, the
// paper's mean residual and noise floor, and every line that would raise `region_tampering`
// (reliability and z at or above the thresholds src/analysis/pixel/region-tampering.ts applies),
// with whether it lies on a forged field. Then, per label and family, how many images raise a
// line, how many lines are raised and how many of those lie on a forged field, and the quantiles
// of the paper's noise floor. OCR lines are cached in OUT/lines/ (the same files
// measure-pixel-cues.ts writes), so a rerun after a change to a trace costs the forensics alone.
// Run: bun scripts/eval/measure-line-traces.ts --corpus DIR --out OUT [--only-identity] \
//   [--id-prefix m] [--report-only]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ELA_LINE_Z_THRESHOLD, analyzePixels, createForensicsGraph } from "../../sidecar/forensics/index.ts";
import { overlaps } from "../../sidecar/forensics/boxes.ts";
import { MIN_RELIABILITY } from "../../src/analysis/pixel/traces.ts";
import { rankQuantile } from "../../src/numeric.ts";
import type { CorpusLabel } from "../corpus/labels.ts";
import { MEASURE_OPTIONS, imageLabels, imagePages } from "./image-pages.ts";
import { readJsonl, writeJsonl } from "./jsonl.ts";
import { groupBy } from "./metrics.ts";

const { values } = parseArgs({ options: MEASURE_OPTIONS });
if (!values.corpus || !values.out) throw new Error("usage: --corpus DIR --out OUT");
const TRACES = ["ela", "noise"] as const;

interface RaisedLine {
  trace: (typeof TRACES)[number];
  z: number;
  onForgedField: boolean;
}
interface Row extends Pick<CorpusLabel, "id" | "label" | "kind" | "family" | "documentType"> {
  reliability: Record<(typeof TRACES)[number], number>;
  paperNoise: number;
  paperFloor: number;
  raised: RaisedLine[];
}

const labels = imageLabels({ ...values, corpus: values.corpus });
const rowsFile = join(values.out, "traces.jsonl");

if (!values["report-only"]) {
  const graph = await createForensicsGraph({ device: "cpu" });
  const rows: Row[] = [];
  for await (const { label, bytes, page, lines: boxes } of imagePages(
    values.corpus,
    labels,
    join(values.out, "lines"),
  )) {
    const { data: rgb, width, height } = page.image;
    const result = await analyzePixels(
      { rgb, width, height, ...(label.format === "jpeg" ? { jpeg: bytes } : {}) },
      // The forensics read the lines' boxes alone.
      boxes.map((box) => ({ box, text: "", confidence: 1, characters: [], polygon: [] })),
      { graph },
    );
    const traceOf = (name: string) => result.traces.find((t) => t.name === name)!;
    const fields = (label.forgery?.regions ?? []).filter((r) => r.unit === "px" && r.page === 0);
    const raised = result.lineScores
      .filter(
        (s): s is typeof s & { trace: RaisedLine["trace"] } =>
          (s.trace === "ela" || s.trace === "noise") &&
          s.score >= ELA_LINE_Z_THRESHOLD &&
          traceOf(s.trace).reliability >= MIN_RELIABILITY,
      )
      .map((s) => ({
        trace: s.trace,
        z: Math.round(s.score * 100) / 100,
        onForgedField: fields.some(({ box: { x, y, w, h } }) => overlaps(boxes[s.lineIndex]!, [x, y, w, h])),
      }));
    const noise = traceOf("noise").facts;
    rows.push({
      id: label.id,
      label: label.label,
      kind: label.kind,
      family: label.family,
      documentType: label.documentType,
      reliability: { ela: traceOf("ela").reliability, noise: traceOf("noise").reliability },
      paperNoise: Number(noise.paperNoise),
      paperFloor: Number(noise.paperFloor),
      raised,
    } satisfies Row);
  }
  await writeJsonl(rowsFile, rows);
  await graph.close();
}

const rows = await readJsonl<Row>(rowsFile);
const q = (xs: number[], p: number) => Math.round(rankQuantile(xs, p) * 100) / 100;
console.log(`lines raised at z >= ${ELA_LINE_Z_THRESHOLD} where the trace's reliability is >= ${MIN_RELIABILITY}`);
console.log(
  "label\tfamily\timages\timages raising (ela, noise)\tlines raised (ela, noise)\ton a forged field\tpaper floor min/p50/p90/max",
);
for (const [key, group] of [...groupBy(rows, (r) => `${r.label}\t${r.family}`)].sort()) {
  const by = (trace: RaisedLine["trace"]) => group.map((r) => r.raised.filter((l) => l.trace === trace).length);
  const images = (trace: RaisedLine["trace"]) => by(trace).filter((n) => n > 0).length;
  const lines = (trace: RaisedLine["trace"]) => by(trace).reduce((a, b) => a + b, 0);
  const onField = group.reduce((n, r) => n + r.raised.filter((l) => l.onForgedField).length, 0);
  const floors = group.map((r) => r.paperFloor);
  console.log(
    `${key}\t${group.length}\t${images("ela")}, ${images("noise")}\t${lines("ela")}, ${lines("noise")}\t${onField}\t${q(floors, 0)}/${q(floors, 0.5)}/${q(floors, 0.9)}/${q(floors, 1)}`,
  );
}
