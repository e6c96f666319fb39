// Sidecar benchmark (not a test): the whole analysis of a page (decode, OCR, pixel forensics)
// through a real sidecar process over gRPC, the same work split into stages in this process
// beside the bare model time (session.run alone), throughput at concurrency 1 and N with the
// sidecar's default dynamic batching and without it (`--sidecar-max-batch 1`; on the CPU the two
// run alike, one input per call, so that comparison is for a GPU), and the same images
// through @gutenye/ocr-node as a peer. Prints one table and the ratios against two targets:
//   - the whole analysis of a page at least 2x faster than the peer's OCR alone;
//   - the sidecar's time at most 1.3x the bare model time of the work it does.
// Phases run one after another, never side by side, so each has the machine to itself; the
// load average is printed because a 2-core machine shared with other work is noisy.
//
//   bun scripts/bench-sidecar.ts [--device cpu|auto|cuda] [--runs 3] [--peer-runs 2] \
//     [--concurrency 8]
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Device } from "../sidecar/ocr/providers.ts";
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_WAIT_MS } from "../sidecar/server/server.ts";
import { peerOcrTimes } from "./bench/peer-ocr.ts";
import { type Series, type SidecarTiming, benchClient, sendPage, sendPages } from "./bench/sidecar-load.ts";
import { startSidecarProcess } from "../test/helpers/sidecar-process.ts";
import { type StageTiming, createStageBench } from "./bench/stages.ts";
import { type StatementPage, statementPage } from "./bench/statement-page.ts";
import { median, sum } from "../src/numeric.ts";
import { table } from "./eval/table.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    device: { type: "string", default: "cpu" },
    runs: { type: "string", default: "3" },
    "peer-runs": { type: "string", default: "2" },
    concurrency: { type: "string", default: "8" },
  },
});
const device = values.device as Device;
const runs = Number(values.runs);
const peerRuns = Number(values["peer-runs"]);
const concurrency = Number(values.concurrency);
// What the sidecar uses when not told otherwise (sidecar/server/server.ts), and the
// unbatched setting it is compared with.
const SIDECAR_BATCH = { maxBatch: DEFAULT_MAX_BATCH, maxWaitMs: DEFAULT_MAX_WAIT_MS };
const OTHER_MAX_BATCH = 1;
const TARGET_PEER_SPEEDUP = 2;
const TARGET_OVERHEAD = 1.3;

const loadAtStart = loadavg();
const started = performance.now();
const pages = [await statementPage(150), await statementPage(300)];
const [page150] = pages as [StatementPage, StatementPage];

// 1. Each page in this process (stages and their session.run time) and through the sidecar
// command as operators run it (default batching, over gRPC), in turns: load that comes and goes
// on the machine then skews both sides of their ratio alike. Neither works while the other does.
const stages = await createStageBench(device, SIDECAR_BATCH);
const executionProviders = stages.executionProviders;
const paired = new Map<StatementPage, { stages: StageTiming; sidecar: SidecarTiming }[]>();
let defaultConcurrent: Series;
{
  const sidecar = await startSidecarProcess([], device);
  const client = benchClient(sidecar.address);
  try {
    for (const page of pages) {
      await stages.timePage(page);
      await sendPage(client, page);
      const runsOfPage: { stages: StageTiming; sidecar: SidecarTiming }[] = [];
      for (let i = 0; i < runs; i++)
        runsOfPage.push({ stages: await stages.timePage(page), sidecar: await sendPage(client, page) });
      paired.set(page, runsOfPage);
    }
    await stages.close();
    defaultConcurrent = await sendPages(client, page150, concurrency, concurrency);
  } finally {
    client.close();
    await sidecar.stop();
  }
}

// 2. The same sidecar with the other batching setting.
let otherSequential: Series;
let otherConcurrent: Series;
{
  const sidecar = await startSidecarProcess(["--sidecar-max-batch", String(OTHER_MAX_BATCH)], device);
  const client = benchClient(sidecar.address);
  try {
    await sendPage(client, page150);
    otherSequential = await sendPages(client, page150, runs, 1);
    otherConcurrent = await sendPages(client, page150, concurrency, concurrency);
  } finally {
    client.close();
    await sidecar.stop();
  }
}

// 3. The peer's OCR alone on the same JPEG files.
const dir = await mkdtemp(join(tmpdir(), "bench-sidecar-"));
let peerTimes: number[][];
try {
  const files = pages.map((page) => join(dir, `statement-${page.dpi}dpi.jpg`));
  await Promise.all(pages.map((page, i) => Bun.write(files[i]!, page.jpeg)));
  peerTimes = await peerOcrTimes(files, peerRuns);
} finally {
  await rm(dir, { recursive: true, force: true });
}

// ---- report ------------------------------------------------------------------------------
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : "-");
const ratio = (v: number) => `${v.toFixed(2)}x`;
const pagesPerSec = (count: number, wallMs: number) => `${((count * 1000) / wallMs).toFixed(2)} pages/s`;
const perSec = (series: Series) => pagesPerSec(series.timings.length, series.wallMs);
const stage = (page: StatementPage, key: keyof StageTiming) => median(paired.get(page)!.map((run) => run.stages[key]));
const served = (page: StatementPage, key: keyof SidecarTiming) =>
  median(paired.get(page)!.map((run) => run.sidecar[key]));
const client = (page: StatementPage) => served(page, "clientMs");
/** Median over runs of the sidecar's time over the bare model time measured beside it. */
const overhead = (page: StatementPage) =>
  median(paired.get(page)!.map((run) => run.sidecar.clientMs / run.stages.models));
const defaultSequential150 = paired.get(page150)!.map((run) => run.sidecar.clientMs);
const peer = (page: StatementPage) => median(peerTimes[pages.indexOf(page)]!);
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" / ");
const row = (label: string, cell: (page: StatementPage) => string) => [label, ...pages.map(cell)];

console.log(
  `Sidecar benchmark, device ${device} (execution providers: ${executionProviders.join(", ")}), ${availableParallelism()} cores, ` +
    `load average at start ${load(loadAtStart)} (1/5/15 min)`,
);
console.log(
  `Page: seeded A4 bank statement, JPEG q90: ${pages.map((p) => `${p.dpi} dpi ${p.width}x${p.height}`).join(", ")}. ` +
    `Medians of ${runs} runs (peer ${peerRuns}) after a warm-up.\n`,
);
console.log(
  table(
    ["ms per page", ...pages.map((p) => `${p.dpi} dpi`)],
    [
      row("in-process: decode (sharp)", (p) => ms(stage(p, "decode"))),
      row("in-process: OCR", (p) => ms(stage(p, "ocr"))),
      row("  detection session.run", (p) => ms(stage(p, "detection"))),
      row("  recognition session.run", (p) => ms(stage(p, "recognition"))),
      row("in-process: forensics", (p) => ms(stage(p, "forensics"))),
      row("  graph session.run", (p) => ms(stage(p, "graph"))),
      row("in-process: whole analysis", (p) => ms(stage(p, "total"))),
      row("bare model time (all session.run)", (p) => ms(stage(p, "models"))),
      row("sidecar over gRPC: caller waited", (p) => ms(client(p))),
      row("  sidecar's own elapsed", (p) => ms(served(p, "sidecarMs"))),
      row("  of which forensics", (p) => ms(served(p, "forensicsMs"))),
      row("@gutenye/ocr-node: OCR alone", (p) => ms(peer(p))),
    ],
  ),
);
console.log();
console.log(
  table(
    [
      `throughput at ${page150.dpi} dpi over gRPC`,
      `default (maxBatch ${SIDECAR_BATCH.maxBatch})`,
      `--sidecar-max-batch ${OTHER_MAX_BATCH}`,
    ],
    [
      ["concurrency 1", pagesPerSec(defaultSequential150.length, sum(defaultSequential150)), perSec(otherSequential)],
      [`concurrency ${concurrency}`, perSec(defaultConcurrent), perSec(otherConcurrent)],
    ],
  ),
);
console.log();
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
console.log(
  table(
    ["ratio (from this run)", ...pages.map((p) => `${p.dpi} dpi`), "target"],
    [
      [
        ...row(
          "peer OCR / sidecar whole analysis",
          (p) => `${ratio(peer(p) / client(p))} ${verdict(peer(p) / client(p) >= TARGET_PEER_SPEEDUP)}`,
        ),
        `>= ${TARGET_PEER_SPEEDUP}x`,
      ],
      [
        ...row(
          "sidecar time / bare model time",
          (p) => `${ratio(overhead(p))} ${verdict(overhead(p) <= TARGET_OVERHEAD)}`,
        ),
        `<= ${TARGET_OVERHEAD}x`,
      ],
      [...row("  in-process analysis / bare model", (p) => ratio(stage(p, "total") / stage(p, "models"))), ""],
      [
        ...row("  OCR / its session.run", (p) =>
          ratio(stage(p, "ocr") / (stage(p, "detection") + stage(p, "recognition"))),
        ),
        "",
      ],
      [...row("  forensics / its session.run", (p) => ratio(stage(p, "forensics") / stage(p, "graph"))), ""],
    ],
  ),
);
console.log(
  `\nload average at end ${load(loadavg())}; whole run ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
