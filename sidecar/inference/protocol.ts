// Messages between the sidecar's thread and its model thread (model-worker.ts). Tensors cross as
// plain typed arrays: the worker's outputs are transferred, the caller's inputs copied unless
// the caller moves them (model-thread.ts: a caller may still read its input after the run, the
// forensic graph's RGB for one).
import type { InferenceSession, Tensor } from "onnxruntime-node";

/** The element types the sidecar's models take and give. */
export type ModelTensor =
  | { type: "float32"; data: Float32Array; dims: readonly number[] }
  | { type: "uint8"; data: Uint8Array; dims: readonly number[] }
  | { type: "int32"; data: Int32Array; dims: readonly number[] };

export type ModelTensors = Record<string, ModelTensor>;

/**
 * The feeds as ONNX Runtime tensors. The Tensor class is passed in: the model thread imports
 * onnxruntime-node only once the runtime is prepared (src/runtime/index.ts).
 */
export const ortFeeds = (OrtTensor: typeof Tensor, feeds: ModelTensors): Record<string, Tensor> =>
  Object.fromEntries(Object.entries(feeds).map(([name, t]) => [name, new OrtTensor(t.type, t.data, t.dims)]));

export type ModelRequest =
  | { type: "load"; id: number; model: Uint8Array; options: InferenceSession.SessionOptions }
  | { type: "run"; id: number; session: number; feeds: ModelTensors }
  | { type: "release"; id: number; session: number };

export type ModelReply =
  | { type: "ready" }
  | { type: "loaded"; id: number; session: number; inputNames: string[]; outputNames: string[] }
  | { type: "ran"; id: number; outputs: ModelTensors }
  | { type: "released"; id: number }
  /** The request failed; `message` is ONNX Runtime's, which names no document content. */
  | { type: "failed"; id: number; message: string };
