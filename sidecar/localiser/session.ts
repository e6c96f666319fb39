// The localiser network (sidecar/models/localiser.onnx, trained by
// scripts/models/localiser/train.py), loaded once per process on the providers the sidecar
// chose, like the forensic graph (sidecar/forensics/graph.ts). It takes the working image as
// plain RGB bytes, its fixed noise filters are inside the graph, and it returns one
// probability of tampering per CELL x CELL working pixels.
import { loadModel } from "../inference/model-thread.ts";
import { loadModelBytes } from "../models/index.ts";
import { type Device, type ThreadOptions, chooseExecutionProviders, sessionOptions } from "../ocr/providers.ts";
import type { WorkingImage } from "./working-image.ts";

/** Working pixels per output cell, along each side. */
export const CELL = 8;

export interface CellProbabilities {
  /** Cells across and down the padded working image. */
  cols: number;
  rows: number;
  probabilities: Float32Array;
  /** Time spent inside session.run. */
  ms: number;
}

export interface LocaliserSession {
  readonly executionProviders: string[];
  run(image: WorkingImage): Promise<CellProbabilities>;
  close(): Promise<void>;
}

export interface LocaliserSessionOptions extends ThreadOptions {
  device: Device;
  /**
   * Providers already chosen for this process (the sidecar chooses once); else chosen from
   * `device`.
   */
  executionProviders?: string[];
}

export async function createLocaliserSession(options: LocaliserSessionOptions): Promise<LocaliserSession> {
  const executionProviders = options.executionProviders ?? chooseExecutionProviders(options.device);
  const session = await loadModel(await loadModelBytes("localiser"), sessionOptions(executionProviders, options));
  const [input] = session.inputNames;
  const [output] = session.outputNames;
  const run = async (image: WorkingImage): Promise<CellProbabilities> => {
    const started = performance.now();
    const out = await session.run({
      [input!]: { type: "uint8", data: image.rgb, dims: [image.paddedHeight, image.paddedWidth, 3] },
    });
    const ms = performance.now() - started;
    const tensor = out[output!]!;
    const [rows, cols] = tensor.dims as [number, number];
    return { rows, cols, probabilities: tensor.data as Float32Array, ms };
  };
  return { executionProviders, run, close: () => session.release() };
}
