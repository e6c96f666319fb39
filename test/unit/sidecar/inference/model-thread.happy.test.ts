// Models run on their own thread (sidecar/inference/model-thread.ts): the sidecar's thread,
// which answers gRPC and health checks, stays free while a model runs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type ModelSession, loadModel } from "../../../../sidecar/inference/model-thread.ts";
import { loadModelBytes } from "../../../../sidecar/models/index.ts";
import { sessionOptions } from "../../../../sidecar/ocr/providers.ts";

const REPO = join(import.meta.dir, "../../../..");
let detection: ModelSession;

beforeAll(async () => {
  detection = await loadModel(await loadModelBytes("ocr-detection"), sessionOptions(["cpu"]));
});

afterAll(() => detection.release());

/** What `work` failed with. (Bun's expect().rejects waited forever on a promise a worker settles.) */
const failure = (work: Promise<unknown>) =>
  work.then(
    () => new Error("it did not fail"),
    (error: Error) => error,
  );

/** A detection input of a page at the detector's largest size, 1600 x 1248. */
const pageInput = () => {
  const [height, width] = [1248, 1600];
  return {
    type: "float32" as const,
    data: new Float32Array(3 * height * width).fill(0.2),
    dims: [1, 3, height, width],
  };
};

describe("the model thread", () => {
  test("leaves the caller's thread free while a model runs", async () => {
    // On the caller's thread a run of this size held it for 0.6 to 1 s (2 cores): a 5 ms timer
    // then fired once, after the run. Free, it fires about every 5 ms of the run.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const outputs = await detection.run({ [detection.inputNames[0]!]: pageInput() });
    const ms = performance.now() - started;
    clearInterval(timer);
    expect(outputs[detection.outputNames[0]!]!.dims).toEqual([1, 1, 1248, 1600]);
    expect(ticks).toBeGreaterThanOrEqual(Math.max(3, Math.floor(ms / 50)));
  });

  test("answers a run that ONNX Runtime refuses with its message, and runs the next one", async () => {
    const wrongShape = { type: "float32" as const, data: new Float32Array(2 * 32 * 32), dims: [1, 2, 32, 32] };
    expect((await failure(detection.run({ [detection.inputNames[0]!]: wrongShape }))).message).toMatch(
      /dimension|shape|channel/i,
    );
    expect((await failure(detection.run({ nonsense: wrongShape }))).message).toMatch(/nonsense|input/i);
    const small = { type: "float32" as const, data: new Float32Array(3 * 64 * 64), dims: [1, 3, 64, 64] };
    const outputs = await detection.run({ [detection.inputNames[0]!]: small });
    expect(outputs[detection.outputNames[0]!]!.dims).toEqual([1, 1, 64, 64]);
  });

  test("refuses a model that is not one, and a run on a released session", async () => {
    expect((await failure(loadModel(new Uint8Array([1, 2, 3, 4]), sessionOptions(["cpu"])))).message).toMatch(
      /protobuf parsing failed/,
    );
    const graph = await loadModel(await loadModelBytes("ocr-detection"), sessionOptions(["cpu"]));
    await graph.release();
    const small = { type: "float32" as const, data: new Float32Array(3 * 32 * 32), dims: [1, 3, 32, 32] };
    expect((await failure(graph.run({ [graph.inputNames[0]!]: small }))).message).toMatch(/no model session/);
    // The thread is still the other session's.
    const outputs = await detection.run({ [detection.inputNames[0]!]: small });
    expect(outputs[detection.outputNames[0]!]!.dims).toEqual([1, 1, 32, 32]);
  });

  test("does not keep a process alive once its runs are answered, released or not", async () => {
    const script = `
      import { loadModel } from "./sidecar/inference/model-thread.ts";
      import { loadModelBytes } from "./sidecar/models/index.ts";
      import { sessionOptions } from "./sidecar/ocr/providers.ts";
      const session = await loadModel(await loadModelBytes("ocr-detection"), sessionOptions(["cpu"]));
      const input = { type: "float32", data: new Float32Array(3 * 64 * 64), dims: [1, 3, 64, 64] };
      const out = await session.run({ [session.inputNames[0]]: input });
      console.log(out[session.outputNames[0]].dims.join("x"));
    `;
    const child = Bun.spawn([process.execPath, "-e", script], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    const exited = await Promise.race([child.exited, Bun.sleep(30_000).then(() => "still running")]);
    if (exited === "still running") child.kill();
    expect(exited).toBe(0);
    expect((await new Response(child.stdout).text()).trim()).toBe("1x1x64x64");
  }, 40_000);
});
