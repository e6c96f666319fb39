// Pixel forensics speed: ms per page at two page widths, the forensic graph alone
// (session.run) against the whole analysis (re-encoding, graph, summaries, copy-move).
// Pages come from the forensics test fixture so the benchmark measures what the tests check.
// Run: bun scripts/bench-forensics.ts [--device cpu|cuda|auto] [--runs N]
import { parseArgs } from "node:util";
import { analyzePixels, createForensicsGraph } from "../sidecar/forensics/index.ts";
import type { Device } from "../sidecar/ocr/providers.ts";
import { decode, render, statement, toJpeg } from "../test/unit/sidecar/forensics/page-fixture.ts";

const { values } = parseArgs({ options: { device: { type: "string", default: "cpu" }, runs: { type: "string", default: "5" } } });
const device = values.device as Device;
const runs = Number(values.runs);
const graph = await createForensicsGraph({ device });
const A4_WIDTH_PT = 595;

console.log(`execution providers: ${graph.executionProviders.join(", ")}`);
for (const width of [1000, 2000]) {
  const { page, lines } = render(statement(1), (width / A4_WIDTH_PT) * 72);
  const jpeg = await toJpeg(page, 85);
  const input = { ...(await decode(jpeg)), jpeg };
  await analyzePixels(input, lines, { graph });
  const graphMs: number[] = [];
  const totalMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await analyzePixels(input, lines, { graph, onGraphRun: (ms) => graphMs.push(ms) });
    totalMs.push(performance.now() - started);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${input.width}x${input.height}: total ${median(totalMs).toFixed(0)} ms/page, graph ${median(graphMs).toFixed(0)} ms (median of ${runs})`);
}
await graph.close();
