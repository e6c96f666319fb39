// Runs the forensic ONNX graph (built by scripts/models/build-forensics-graphs.ts) on the
// execution providers DOCVERIFY_SIDECAR_DEVICE selects, and hands back its per-block maps.
// The per-pixel work is a graph rather than a TypeScript loop so that a GPU box runs it on
// the GPU; on a CPU, ONNX Runtime's MLAS kernels are multi-threaded and vectorised.
import { InferenceSession, Tensor } from "onnxruntime-node";
import { loadForensicsGraphBytes } from "../models/forensics/index.ts";
import { type Device, type ThreadOptions, chooseExecutionProviders, sessionOptions } from "../ocr/providers.ts";
import { BLOCK, CM_BLOCK, CM_FREQS, CM_STEP, GRAPH_INPUTS, GRAPH_OUTPUTS } from "./graph-spec.ts";

/** A per-block map, row-major, `channels` values per block (interleaved). */
export interface BlockMap {
  cols: number;
  rows: number;
  data: Float32Array;
}

export interface ForensicMaps {
  /** Blocks of BLOCK x BLOCK pixels across and down. */
  cols: number;
  rows: number;
  ela: Float32Array;
  edge: Float32Array;
  noise: Float32Array;
  /** 8 values per block: mean clipped horizontal difference at column phase 0..7 (row-major blocks). */
  gridH: Float32Array;
  /** 8 values per block: mean clipped vertical difference at row phase 0..7 (row-major blocks). */
  gridV: Float32Array;
  /** 64 planes of cols*rows: the 8x8 DCT coefficient (v*8+u) of every block. */
  dct: Float32Array;
  /** CM_FREQS² planes of cmCols*cmRows copy-move features, block (i, j) at pixel (i*CM_STEP, j*CM_STEP). */
  copyMove: Float32Array;
  cmCols: number;
  cmRows: number;
  /** Time spent inside session.run. */
  ms: number;
}

export interface ForensicsGraph {
  readonly executionProviders: string[];
  /** `rgb` and `recompressed` are width x height interleaved RGB; both sides multiples of BLOCK, at least CM_BLOCK. */
  run(rgb: Uint8Array, recompressed: Uint8Array, width: number, height: number): Promise<ForensicMaps>;
  close(): Promise<void>;
}

export interface ForensicsGraphOptions extends ThreadOptions {
  device: Device;
  /** Providers already chosen for this process (the sidecar chooses once); else chosen from `device`. */
  executionProviders?: string[];
}

export async function createForensicsGraph(options: ForensicsGraphOptions): Promise<ForensicsGraph> {
  const executionProviders = options.executionProviders ?? chooseExecutionProviders(options.device);
  const session = await InferenceSession.create(await loadForensicsGraphBytes(), sessionOptions(executionProviders, options));

  const run = async (rgb: Uint8Array, recompressed: Uint8Array, width: number, height: number): Promise<ForensicMaps> => {
    if (width % BLOCK !== 0 || height % BLOCK !== 0 || width < CM_BLOCK || height < CM_BLOCK) {
      throw new RangeError(`forensic graph needs sides that are multiples of ${BLOCK} and at least ${CM_BLOCK}, got ${width}x${height}`);
    }
    const dims = [height, width, 3];
    const started = performance.now();
    const out = await session.run({
      [GRAPH_INPUTS.rgb]: new Tensor("uint8", rgb, dims),
      [GRAPH_INPUTS.recompressed]: new Tensor("uint8", recompressed, dims),
    });
    const ms = performance.now() - started;
    const get = (name: string) => out[name]!.data as Float32Array;
    const cols = width / BLOCK;
    const rows = height / BLOCK;
    return {
      cols,
      rows,
      ela: get(GRAPH_OUTPUTS.ela),
      edge: get(GRAPH_OUTPUTS.edge),
      noise: get(GRAPH_OUTPUTS.noise),
      gridH: get(GRAPH_OUTPUTS.gridH),
      gridV: transposePhases(get(GRAPH_OUTPUTS.gridV), cols, rows),
      dct: get(GRAPH_OUTPUTS.dct),
      copyMove: get(GRAPH_OUTPUTS.copyMove),
      cmCols: Math.floor((width - CM_BLOCK) / CM_STEP) + 1,
      cmRows: Math.floor((height - CM_BLOCK) / CM_STEP) + 1,
      ms,
    };
  };

  return { executionProviders, run, close: () => session.release() };
}

/** The graph emits vertical profiles column-major (it transposes to pool rows); reorder to row-major blocks. */
function transposePhases(columnMajor: Float32Array, cols: number, rows: number): Float32Array {
  const out = new Float32Array(columnMajor.length);
  for (let bx = 0; bx < cols; bx++) {
    for (let by = 0; by < rows; by++) out.set(columnMajor.subarray((bx * rows + by) * BLOCK, (bx * rows + by + 1) * BLOCK), (by * cols + bx) * BLOCK);
  }
  return out;
}

export const COPY_MOVE_FEATURES = CM_FREQS * CM_FREQS;
