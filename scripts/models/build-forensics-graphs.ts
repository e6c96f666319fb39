// Writes sidecar/models/forensics/forensics-maps.onnx: the per-pixel half of the pixel
// forensics (luma, recompression residual, gradients, SRM noise residual, JPEG grid phase
// profiles, 8x8 block DCT, copy-move block features) as one ONNX graph, so that the CUDA
// execution provider runs it on a GPU box and MLAS runs it on a CPU. Everything after it
// works on per-block maps 64 times smaller than the page and stays in TypeScript.
// The graph is small and fixed, so it is written op by op with onnx-proto rather than
// exported from a training framework. Run: bun scripts/models/build-forensics-graphs.ts
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { onnx } from "onnx-proto";
import {
  BLOCK,
  CM_BLOCK,
  CM_FREQS,
  CM_STEP,
  GRAPH_FILE,
  GRAPH_INPUTS,
  GRAPH_OUTPUTS,
  GRID_CLIP,
  LUMA_WEIGHTS,
  cmBasis,
} from "../../sidecar/forensics/graph-spec.ts";

const OPSET = 13;
const { DataType } = onnx.TensorProto;
const { AttributeType } = onnx.AttributeProto;

const nodes: onnx.INodeProto[] = [];
const initializers: onnx.ITensorProto[] = [];
let counter = 0;

function floats(name: string, dims: number[], values: ArrayLike<number>): string {
  initializers.push({ name, dims, dataType: DataType.FLOAT, floatData: Array.from(values) });
  return name;
}

function ints(name: string, values: number[]): string {
  initializers.push({ name, dims: [values.length], dataType: DataType.INT64, int64Data: values });
  return name;
}

type Attr = number | number[] | string;

function attribute(name: string, value: Attr): onnx.IAttributeProto {
  if (typeof value === "string") return { name, type: AttributeType.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  return { name, type: AttributeType.INT, i: value };
}

/** Adds one node and returns the name of its (single) output. */
function op(opType: string, inputs: string[], attrs: Record<string, Attr> = {}, output = `${opType.toLowerCase()}_${counter++}`): string {
  nodes.push({ opType, input: inputs, output: [output], name: output, attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)) });
  return output;
}

const blockMean = (x: string, output?: string) => op("AveragePool", [x], { kernel_shape: [BLOCK, BLOCK], strides: [BLOCK, BLOCK] }, output);

/** Luma [1,1,H,W] as float from interleaved 8-bit RGB [H,W,3]. */
function luma(rgb: string): string {
  const asFloat = op("Cast", [rgb], { to: DataType.FLOAT });
  const y = op("MatMul", [asFloat, floats(`luma_weights_${counter}`, [3, 1], LUMA_WEIGHTS)]);
  const planar = op("Transpose", [y], { perm: [2, 0, 1] });
  return op("Unsqueeze", [planar, ints(`unsqueeze_axes_${counter}`, [0])]);
}

const grey = luma(GRAPH_INPUTS.rgb);
const recompressed = luma(GRAPH_INPUTS.recompressed);

// Recompression residual.
blockMean(op("Abs", [op("Sub", [grey, recompressed])]), GRAPH_OUTPUTS.ela);

// First differences toward the left and upper neighbour; edge padding makes the first
// column and row difference zero instead of a jump from an implicit black border.
const padLeft = op("Pad", [grey, ints("pad_left", [0, 0, 0, 1, 0, 0, 0, 0])], { mode: "edge" });
const padTop = op("Pad", [grey, ints("pad_top", [0, 0, 1, 0, 0, 0, 0, 0])], { mode: "edge" });
const dx = op("Abs", [op("Conv", [padLeft, floats("diff_x", [1, 1, 1, 2], [-1, 1])])]);
const dy = op("Abs", [op("Conv", [padTop, floats("diff_y", [1, 1, 2, 1], [-1, 1])])]);
blockMean(op("Add", [dx, dy]), GRAPH_OUTPUTS.edge);

// JPEG grid: clipped differences averaged over each block's rows (columns), then split by phase.
const clipLow = floats("clip_low", [], [0]);
const clipHigh = floats("clip_high", [], [GRID_CLIP]);
const splitPhase = ints("split_phase", [0, 0, 0, -1, BLOCK]);
const rowsMean = op("AveragePool", [op("Clip", [dx, clipLow, clipHigh])], { kernel_shape: [BLOCK, 1], strides: [BLOCK, 1] });
op("Reshape", [rowsMean, splitPhase], {}, GRAPH_OUTPUTS.gridH);
const colsMean = op("AveragePool", [op("Clip", [dy, clipLow, clipHigh])], { kernel_shape: [1, BLOCK], strides: [1, BLOCK] });
op("Reshape", [op("Transpose", [colsMean], { perm: [0, 1, 3, 2] }), splitPhase], {}, GRAPH_OUTPUTS.gridV);

// Noise residual: the SRM "square 3x3" second-order high-pass (Fridrich & Kodovsky 2012).
const padAll = op("Pad", [grey, ints("pad_all", [0, 0, 1, 1, 0, 0, 1, 1])], { mode: "edge" });
const srm = [-1, 2, -1, 2, -4, 2, -1, 2, -1].map((v) => v / 4);
blockMean(op("Abs", [op("Conv", [padAll, floats("srm_3x3", [1, 1, 3, 3], srm)])]), GRAPH_OUTPUTS.noise);

// 8x8 block DCT as a stride-8 convolution with the 64 JPEG basis functions.
const jpegBasis = new Float32Array(64 * 64);
const c = (k: number) => (k === 0 ? Math.SQRT1_2 : 1);
for (let v = 0; v < 8; v++) {
  for (let u = 0; u < 8; u++) {
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        jpegBasis[(v * 8 + u) * 64 + y * 8 + x] =
          0.25 * c(u) * c(v) * Math.cos(((2 * x + 1) * u * Math.PI) / 16) * Math.cos(((2 * y + 1) * v * Math.PI) / 16);
      }
    }
  }
}
const centred = op("Sub", [grey, floats("level_shift", [], [128])]);
op("Conv", [centred, floats("jpeg_dct_basis", [64, 1, 8, 8], jpegBasis)], { strides: [BLOCK, BLOCK] }, GRAPH_OUTPUTS.dct);

// Copy-move features: the separable 16-point orthonormal DCT, rows then columns, taken
// every CM_STEP pixels; the column pass is grouped so each row frequency gets its own column frequencies.
const rowKernel = new Float32Array(CM_FREQS * CM_BLOCK);
for (let u = 0; u < CM_FREQS; u++) for (let n = 0; n < CM_BLOCK; n++) rowKernel[u * CM_BLOCK + n] = cmBasis(u, n);
const colKernel = new Float32Array(CM_FREQS * CM_FREQS * CM_BLOCK);
for (let u = 0; u < CM_FREQS; u++) {
  for (let v = 0; v < CM_FREQS; v++) for (let n = 0; n < CM_BLOCK; n++) colKernel[(u * CM_FREQS + v) * CM_BLOCK + n] = cmBasis(v, n);
}
const rowPass = op("Conv", [grey, floats("cm_rows", [CM_FREQS, 1, 1, CM_BLOCK], rowKernel)], { strides: [1, CM_STEP] });
op(
  "Conv",
  [rowPass, floats("cm_cols", [CM_FREQS * CM_FREQS, 1, CM_BLOCK, 1], colKernel)],
  { strides: [CM_STEP, 1], group: CM_FREQS },
  GRAPH_OUTPUTS.copyMove,
);

const rgbType = (name: string): onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType: DataType.UINT8, shape: { dim: [{ dimParam: "H" }, { dimParam: "W" }, { dimValue: 3 }] } } },
});
const floatOutput = (name: string): onnx.IValueInfoProto => ({ name, type: { tensorType: { elemType: DataType.FLOAT } } });

const model = onnx.ModelProto.create({
  irVersion: 8,
  producerName: "docverify scripts/models/build-forensics-graphs.ts",
  opsetImport: [{ domain: "", version: OPSET }],
  graph: {
    name: "forensics_maps",
    node: nodes,
    initializer: initializers,
    input: [rgbType(GRAPH_INPUTS.rgb), rgbType(GRAPH_INPUTS.recompressed)],
    output: Object.values(GRAPH_OUTPUTS).map(floatOutput),
  },
});

const target = join(import.meta.dir, "..", "..", "sidecar", "models", "forensics", GRAPH_FILE);
const bytes = onnx.ModelProto.encode(model).finish();
await writeFile(target, bytes);
console.log(`wrote ${target} (${bytes.byteLength} bytes, ${nodes.length} nodes)`);
