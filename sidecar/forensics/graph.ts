// Runs the forensic ONNX graph (built by scripts/models/build-forensics-graphs.ts) on the
// execution providers DOCVERIFY_SIDECAR_DEVICE selects, and hands back its per-block maps.
// The per-pixel work is a graph rather than a TypeScript loop so that a GPU box runs it on
// the GPU; on a CPU, ONNX Runtime's MLAS kernels are multi-threaded and vectorised.
import { loadModel } from "../inference/model-thread.ts";
import { loadForensicsGraphBytes } from "../models/forensics/index.ts";
import { type Device, type ThreadOptions, chooseExecutionProviders, sessionOptions } from "../ocr/providers.ts";
import { BLOCK, CM_BLOCK, CM_STEP, GRAPH_INPUTS, GRAPH_OUTPUTS } from "./graph-spec.ts";

export interface ForensicMaps {
  /** Blocks of BLOCK x BLOCK pixels across and down. */
  cols: number;
  rows: number;
  ela: Float32Array;
  edge: Float32Array;
  noise: Float32Array;
  /**
   * 8 values per block: mean clipped horizontal difference at column phase 0..7 (row-major blocks).
   */
  gridH: Float32Array;
  /** 8 values per block: mean clipped vertical difference at row phase 0..7 (row-major blocks). */
  gridV: Float32Array;
  /**
   * The textured copy-move blocks, ascending row-major indices on the cmCols x cmRows grid (block
   * (i, j) at pixel (i*CM_STEP, j*CM_STEP)).
   */
  copyMoveBlocks: Int32Array;
  /** CM_FREQS² planes of copyMoveBlocks.length features: those blocks' low-frequency DCT. */
  copyMoveFeatures: Float32Array;
  cmCols: number;
  cmRows: number;
  /** Time spent inside session.run. */
  ms: number;
}

export interface ForensicsGraph {
  readonly executionProviders: string[];
  /**
   * `rgb` is width x height interleaved RGB, both sides multiples of BLOCK and at least CM_BLOCK;
   * `elaSteps` the 64 luma quantisation steps (natural order) error-level analysis re-encodes with.
   */
  run(rgb: Uint8Array, width: number, height: number, elaSteps: ArrayLike<number>): Promise<ForensicMaps>;
  close(): Promise<void>;
}

export interface ForensicsGraphOptions extends ThreadOptions {
  device: Device;
  /**
   * Providers already chosen for this process (the sidecar chooses once); else chosen from
   * `device`.
   */
  executionProviders?: string[];
}

export async function createForensicsGraph(options: ForensicsGraphOptions): Promise<ForensicsGraph> {
  const executionProviders = options.executionProviders ?? chooseExecutionProviders(options.device);
  const session = await loadModel(await loadForensicsGraphBytes(), sessionOptions(executionProviders, options));

  const run = async (
    rgb: Uint8Array,
    width: number,
    height: number,
    elaSteps: ArrayLike<number>,
  ): Promise<ForensicMaps> => {
    if (width % BLOCK !== 0 || height % BLOCK !== 0 || width < CM_BLOCK || height < CM_BLOCK) {
      throw new RangeError(
        `forensic graph needs sides that are multiples of ${BLOCK} and at least ${CM_BLOCK}, got ${width}x${height}`,
      );
    }
    if (elaSteps.length !== 64)
      throw new RangeError(`error-level analysis needs 64 quantisation steps, got ${elaSteps.length}`);
    const started = performance.now();
    const out = await session.run({
      [GRAPH_INPUTS.rgb]: { type: "uint8", data: rgb, dims: [height, width, 3] },
      [GRAPH_INPUTS.elaSteps]: { type: "float32", data: Float32Array.from(elaSteps), dims: [64] },
    });
    const ms = performance.now() - started;
    const get = (name: string) => out[name]!.data as Float32Array;
    return {
      cols: width / BLOCK,
      rows: height / BLOCK,
      ela: get(GRAPH_OUTPUTS.ela),
      edge: get(GRAPH_OUTPUTS.edge),
      noise: get(GRAPH_OUTPUTS.noise),
      gridH: get(GRAPH_OUTPUTS.gridH),
      gridV: get(GRAPH_OUTPUTS.gridV),
      copyMoveBlocks: out[GRAPH_OUTPUTS.copyMoveBlocks]!.data as Int32Array,
      copyMoveFeatures: get(GRAPH_OUTPUTS.copyMoveFeatures),
      cmCols: Math.floor((width - CM_BLOCK) / CM_STEP) + 1,
      cmRows: Math.floor((height - CM_BLOCK) / CM_STEP) + 1,
      ms,
    };
  };

  return { executionProviders, run, close: () => session.release() };
}
