// What the model thread (sidecar/inference/model-thread.ts) buys and costs, measured side by
// side in one run on the same inputs: each sidecar model run on the calling thread, as
// onnxruntime-node runs it (synchronously under its promise), and on the model thread. For each
// it prints the run's time and the worst delay of a 5 ms timer on the calling thread during the
// runs: how long gRPC, health checks and keepalives would have waited. The inputs are a page at
// the text detector's full size (1600 x 1248), 60 line crops of 480 pixels read one per call (as
// the CPU engine reads them), and the forensic graph on a 1600 x 1248 page.
// Run: bun scripts/bench-model-thread.ts [--runs N]
import { parseArgs } from "node:util";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { loadModel, type ModelTensors } from "../sidecar/inference/model-thread.ts";
import { ortFeeds } from "../sidecar/inference/protocol.ts";
import { loadModelBytes } from "../sidecar/models/index.ts";
import { loadForensicsGraphBytes } from "../sidecar/models/forensics/index.ts";
import { sessionOptions } from "../sidecar/ocr/providers.ts";
import { GRAPH_INPUTS } from "../sidecar/forensics/graph-spec.ts";
import { median } from "../src/numeric.ts";
import { table } from "./eval/table.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const options = sessionOptions(["cpu"]);

interface Work {
  name: string;
  model: Uint8Array;
  /** The feeds are made for the call and moved to the model thread, as the OCR engine's are. */
  transfer: boolean;
  /** Fresh inputs for one measured step, `input` the model's input: the calls it makes, in turn. */
  calls(input: string): ModelTensors[];
}

const [height, width] = [1248, 1600];
const works: Work[] = [
  {
    name: "text detection, 1600 x 1248",
    model: await loadModelBytes("ocr-detection"),
    transfer: true,
    calls: (input) => [
      {
        [input]: { type: "float32", data: new Float32Array(3 * height * width).fill(0.2), dims: [1, 3, height, width] },
      },
    ],
  },
  {
    name: "recognition, 60 crops one per call",
    model: await loadModelBytes("ocr-recognition"),
    transfer: true,
    calls: (input) =>
      Array.from({ length: 60 }, () => ({
        [input]: { type: "float32" as const, data: new Float32Array(3 * 48 * 480).fill(0.1), dims: [1, 3, 48, 480] },
      })),
  },
  {
    name: "forensic graph, 1600 x 1248",
    model: await loadForensicsGraphBytes(),
    // The page's pixels are read again after the run: copied, as the forensics copies them.
    transfer: false,
    calls: () => [
      {
        [GRAPH_INPUTS.rgb]: {
          type: "uint8",
          data: new Uint8Array(3 * height * width).fill(128),
          dims: [height, width, 3],
        },
        [GRAPH_INPUTS.elaSteps]: { type: "float32", data: new Float32Array(64).fill(4), dims: [64] },
      },
    ],
  },
];

type Runner = {
  inputNames: readonly string[];
  run(feeds: ModelTensors, options: { transfer: boolean }): Promise<unknown>;
};

/** The calling thread's session, behind the same shape as the model thread's. */
async function onCallingThread(model: Uint8Array): Promise<Runner & { release(): Promise<void> }> {
  const session = await InferenceSession.create(model, options);
  return {
    inputNames: session.inputNames,
    run: (feeds) => session.run(ortFeeds(Tensor, feeds)),
    release: () => session.release(),
  };
}

/** Median time of a step and the worst timer delay over all steps. */
async function measure(runner: Runner, work: Work): Promise<{ ms: number; lag: number }> {
  const input = runner.inputNames[0]!;
  // A warm-up step: ONNX Runtime plans its first run of a shape.
  for (const feeds of work.calls(input)) await runner.run(feeds, work);
  let last = performance.now();
  let lag = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 5);
    last = now;
  }, 5);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const calls = work.calls(input);
    const started = performance.now();
    for (const feeds of calls) await runner.run(feeds, work);
    times.push(performance.now() - started);
  }
  // A run that held the thread to the end leaves no tick after it: count the stretch since the last.
  lag = Math.max(lag, performance.now() - last - 5);
  clearInterval(timer);
  return { ms: median(times), lag };
}

const rows: string[][] = [];
for (const work of works) {
  const local = await onCallingThread(work.model);
  const remote = await loadModel(work.model, options);
  const a = await measure(local, work);
  const b = await measure(remote, work);
  await Promise.all([local.release(), remote.release()]);
  rows.push([
    work.name,
    `${a.ms.toFixed(0)} ms`,
    `${b.ms.toFixed(0)} ms`,
    `${(b.ms / a.ms).toFixed(2)}x`,
    `${a.lag.toFixed(0)} ms`,
    `${b.lag.toFixed(0)} ms`,
  ]);
}
console.log(`Model runs on the calling thread and on the model thread, median of ${runs}, CPU\n`);
console.log(
  table(
    [
      "work",
      "time, calling thread",
      "time, model thread",
      "ratio",
      "worst timer delay, calling",
      "worst timer delay, model thread",
    ],
    rows,
  ),
);
