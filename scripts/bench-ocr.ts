// OCR benchmark (not a test): per page, the sidecar engine's wall time against the time its
// ONNX sessions spend in session.run for the same inputs (the engine reports every run), and
// the same page through @gutenye/ocr-node, the off-the-shelf PP-OCR package for Node, side
// by side. The peer runs in a child process: it brings its own sharp and ONNX Runtime
// threads, and must not share the process it is compared with. Engine and peer take turns
// in rounds and medians are reported, so a busy machine skews both alike.
//
//   bun scripts/bench-ocr.ts [--rounds 3] [--runs 3] [--dpi 150] [--concurrency 8] \
//     [--max-batch 16] [image.png ...]
//
// Without images it renders the bank-statement page the OCR tests score (test/helpers).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import type { RgbImage } from "../sidecar/image/rgb.ts";
import { type ModelRun, type OcrEngine, createOcrEngine } from "../sidecar/ocr/engine.ts";
import { renderPrinted } from "../test/helpers/pages.ts";
import { KNOWN_STATEMENT } from "../test/helpers/statements.ts";
import { median } from "../src/numeric.ts";

const MAX_INPUT_PIXELS = 60_000_000;

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    rounds: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    dpi: { type: "string", default: "150" },
    concurrency: { type: "string", default: "8" },
    "max-batch": { type: "string", default: "16" },
    peer: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
const rounds = Number(values.rounds);
const runs = Number(values.runs);

if (values.peer) {
  console.log(JSON.stringify(await peerTimes(positionals)));
} else {
  await main();
}

interface PageTiming {
  total: number;
  detection: number;
  recognition: number;
  calls: number;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bench-ocr-"));
  const modelRuns: ModelRun[] = [];
  const engine = await createOcrEngine({
    device: "cpu",
    batch: { maxBatch: Number(values["max-batch"]), maxWaitMs: 2 },
    onModelRun: (run) => modelRuns.push(run),
  });
  try {
    const pages =
      positionals.length > 0
        ? await Promise.all(positionals.map(decode))
        : [renderPrinted(KNOWN_STATEMENT, { dpi: Number(values.dpi) })];
    const files = await Promise.all(pages.map((page, i) => writePng(page, join(dir, `page-${i}.png`))));
    for (const page of pages) await engine.readImage(page);
    const ours: PageTiming[] = [];
    const peer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < runs; i++) for (const page of pages) ours.push(await timePage(engine, page, modelRuns));
      peer.push(...(await runPeer(files)));
    }
    const concurrent = await timeConcurrent(engine, pages, modelRuns);

    const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;
    const total = median(ours.map((t) => t.total));
    const bare = median(ours.map((t) => t.detection + t.recognition));
    const ratio = median(ours.map((t) => t.total / (t.detection + t.recognition)));
    const peerMs = median(peer);
    console.log(
      `pages: ${pages.map((p) => `${p.width}x${p.height}`).join(", ")}; ${rounds} rounds x ${runs} runs; ${navigator.hardwareConcurrency} cores; medians per page`,
    );
    console.log(`detection   session.run ${ms(median(ours.map((t) => t.detection)))}`);
    console.log(
      `recognition session.run ${ms(median(ours.map((t) => t.recognition)))}  (${median(ours.map((t) => t.calls))} calls)`,
    );
    console.log(`bare models (det + rec) ${ms(bare)}`);
    console.log(`sidecar engine          ${ms(total)}   ${ratio.toFixed(2)}x the bare model time (target <= 1.3x)`);
    console.log(`@gutenye/ocr-node       ${ms(peerMs)}   sidecar is ${(peerMs / total).toFixed(2)}x faster`);
    console.log(
      `${concurrent.pages} concurrent pages: ${concurrent.ms.toFixed(0)} ms in all, ${(concurrent.ms / concurrent.pages).toFixed(0)} ms per page; ` +
        `largest recognition batch ${concurrent.largestBatch} crops`,
    );
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function timePage(engine: OcrEngine, page: RgbImage, modelRuns: ModelRun[]): Promise<PageTiming> {
  modelRuns.length = 0;
  const start = performance.now();
  await engine.readImage(page);
  const total = performance.now() - start;
  const sum = (model: ModelRun["model"]) => modelRuns.filter((r) => r.model === model).reduce((s, r) => s + r.ms, 0);
  return { total, detection: sum("detection"), recognition: sum("recognition"), calls: modelRuns.length };
}

async function timeConcurrent(engine: OcrEngine, pages: RgbImage[], modelRuns: ModelRun[]) {
  const count = Number(values.concurrency);
  modelRuns.length = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => engine.readImage(pages[i % pages.length]!)));
  const ms = performance.now() - start;
  const largestBatch = Math.max(...modelRuns.filter((r) => r.model === "recognition").map((r) => r.items));
  return { pages: count, ms, largestBatch };
}

async function runPeer(files: string[]): Promise<number[]> {
  const child = Bun.spawn([process.execPath, import.meta.path, "--peer", "--runs", String(runs), ...files], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error("the @gutenye/ocr-node run failed");
  return JSON.parse(out.trim().split("\n").at(-1)!) as number[];
}

/**
 * Child process: ms per page @gutenye/ocr-node takes, `runs` passes over the files after a warm-up.
 */
async function peerTimes(files: string[]): Promise<number[]> {
  const { default: Ocr } = await import("@gutenye/ocr-node");
  const ocr = await Ocr.create();
  for (const file of files) await ocr.detect(file);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const file of files) {
      const start = performance.now();
      await ocr.detect(file);
      times.push(performance.now() - start);
    }
  }
  return times;
}

async function decode(path: string): Promise<RgbImage> {
  const { data, info } = await sharp(path, { limitInputPixels: MAX_INPUT_PIXELS })
    .removeAlpha()
    .toColorspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

async function writePng(page: RgbImage, path: string): Promise<string> {
  await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 3 } })
    .png()
    .toFile(path);
  return path;
}
