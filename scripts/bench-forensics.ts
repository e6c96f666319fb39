// Pixel forensics speed: ms per page at two page widths, the forensic graph alone
// (session.run) against the whole analysis (graph, line and tile summaries, JPEG coefficients,
// copy-move). Pages are the seeded statements the forensics tests check (test/helpers), saved as
// JPEG q85. Run: bun scripts/bench-forensics.ts [--device cpu|cuda|auto] [--runs N]
import { parseArgs } from "node:util";
import sharp from "sharp";
import { analyzePixels, createForensicsGraph } from "../sidecar/forensics/index.ts";
import type { Device } from "../sidecar/ocr/providers.ts";
import { renderPrintedWithLines } from "../test/helpers/pages.ts";
import { seededStatement } from "../test/helpers/statements.ts";
import { median } from "../src/numeric.ts";

const { values } = parseArgs({
  options: { device: { type: "string", default: "cpu" }, runs: { type: "string", default: "5" } },
});
const device = values.device as Device;
const runs = Number(values.runs);
const graph = await createForensicsGraph({ device });
const A4_WIDTH_PT = 595;

console.log(`execution providers: ${graph.executionProviders.join(", ")}`);
for (const width of [1000, 2000]) {
  const { image, lines } = renderPrintedWithLines(seededStatement(1), { dpi: (width / A4_WIDTH_PT) * 72 });
  const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const input = {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
    jpeg: new Uint8Array(jpeg),
  };
  await analyzePixels(input, lines, { graph });
  const graphMs: number[] = [];
  const totalMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await analyzePixels(input, lines, { graph, onGraphRun: (ms) => graphMs.push(ms) });
    totalMs.push(performance.now() - started);
  }
  console.log(
    `${input.width}x${input.height}: total ${median(totalMs).toFixed(0)} ms/page, graph ${median(graphMs).toFixed(0)} ms (median of ${runs})`,
  );
}
await graph.close();
