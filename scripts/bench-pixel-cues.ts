// Portrait checks and recapture cues speed: ms per page of the cues alone (after the forensic
// graph, whose maps they read), on the seeded statement pages bench-forensics.ts times, at two
// page widths, and on the committed identity-card and passport fixtures.
// Run: bun scripts/bench-pixel-cues.ts [--device cpu|cuda|auto] [--runs N]
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { measureCues } from "../sidecar/cues/index.ts";
import { createForensicsGraph } from "../sidecar/forensics/index.ts";
import { BLOCK } from "../sidecar/forensics/graph-spec.ts";
import { prepare } from "../sidecar/forensics/prepare.ts";
import type { Device } from "../sidecar/ocr/providers.ts";
import { renderPrintedWithLines } from "../test/helpers/pages.ts";
import { seededStatement } from "../test/helpers/statements.ts";
import { median } from "../src/numeric.ts";

const { values } = parseArgs({
  options: { device: { type: "string", default: "cpu" }, runs: { type: "string", default: "5" } },
});
const runs = Number(values.runs);
const graph = await createForensicsGraph({ device: values.device as Device });
const A4_WIDTH_PT = 595;
const FIXTURES = join(import.meta.dir, "..", "test", "fixtures", "pixel-cues");

async function time(name: string, bytes: Uint8Array, lines: [number, number, number, number][]): Promise<void> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const prepared = prepare(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), info.width, info.height, 90);
  const maps = await graph.run(prepared.rgb, prepared.width, prepared.height, prepared.elaSteps);
  measureCues(prepared.rgb, prepared.width, prepared.height, maps, lines, BLOCK);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    measureCues(prepared.rgb, prepared.width, prepared.height, maps, lines, BLOCK);
    ms.push(performance.now() - started);
  }
  console.log(`${name} ${info.width}x${info.height}: cues ${median(ms).toFixed(1)} ms/page (median of ${runs})`);
}

console.log(`execution providers: ${graph.executionProviders.join(", ")}`);
for (const width of [1000, 2000]) {
  const { image, lines } = renderPrintedWithLines(seededStatement(1), { dpi: (width / A4_WIDTH_PT) * 72 });
  const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  await time(
    "statement",
    new Uint8Array(jpeg),
    lines.map((l) => l.box as [number, number, number, number]),
  );
}
for (const file of ["id-card-scan.jpg", "id-card-print-recaptured.jpg"]) {
  await time(file, new Uint8Array(await readFile(join(FIXTURES, file))), []);
}
// A passport page of the corpus template that prints a ghost: the ghost search's longest case on
// a card, a large portrait slid over a large page.
const passport = join(import.meta.dir, "..", "test", "fixtures", "manipulations", "m0003.jpg");
await time("passport m0003.jpg", new Uint8Array(await readFile(passport)), []);
await graph.close();
