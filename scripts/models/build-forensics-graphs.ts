// Writes sidecar/models/forensics/forensics-maps.onnx: the per-pixel half of the pixel
// forensics (luma, error level against a JPEG re-encoding done in the graph, gradients, SRM
// noise residual, JPEG grid phase profiles, copy-move block features of the textured blocks)
// as one ONNX graph, so that the CUDA execution provider runs it on a GPU box and MLAS runs it
// on a CPU. Everything after it works on per-block maps 64 times smaller than the page (and
// the few textured copy-move blocks) and stays in TypeScript.
// The graph is small and fixed, so it is written op by op with onnx-proto rather than
// exported from a training framework. Run: bun scripts/models/build-forensics-graphs.ts
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { onnx } from "onnx-proto";
import {
  BLOCK,
  CM_BLOCK,
  CM_FREQS,
  CM_MIN_AC_ENERGY,
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
function op(
  opType: string,
  inputs: string[],
  attrs: Record<string, Attr> = {},
  output = `${opType.toLowerCase()}_${counter++}`,
): string {
  nodes.push({
    opType,
    input: inputs,
    output: [output],
    name: output,
    attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
  });
  return output;
}

const blockMean = (x: string, output?: string) =>
  op("AveragePool", [x], { kernel_shape: [BLOCK, BLOCK], strides: [BLOCK, BLOCK] }, output);

/** Luma [1,1,H,W] as float from interleaved 8-bit RGB [H,W,3]. */
function luma(rgb: string): string {
  const asFloat = op("Cast", [rgb], { to: DataType.FLOAT });
  const y = op("MatMul", [asFloat, floats(`luma_weights_${counter}`, [3, 1], LUMA_WEIGHTS)]);
  const planar = op("Transpose", [y], { perm: [2, 0, 1] });
  return op("Unsqueeze", [planar, ints(`unsqueeze_axes_${counter}`, [0])]);
}

const grey = luma(GRAPH_INPUTS.rgb);

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
const rowsMean = op("AveragePool", [op("Clip", [dx, clipLow, clipHigh])], {
  kernel_shape: [BLOCK, 1],
  strides: [BLOCK, 1],
});
op("Reshape", [rowsMean, splitPhase], {}, GRAPH_OUTPUTS.gridH);
const colsMean = op("AveragePool", [op("Clip", [dy, clipLow, clipHigh])], {
  kernel_shape: [1, BLOCK],
  strides: [1, BLOCK],
});
// Rows of each block's column grouped by block row, then the 8 phases moved last: row-major blocks.
const blockCols = op("Slice", [op("Shape", [colsMean]), ints("last_from", [3]), ints("last_to", [4])]);
const blockRowsShape = op("Concat", [ints("split_block_rows", [1, 1, -1, BLOCK]), blockCols], { axis: 0 });
const blockRows = op("Reshape", [colsMean, blockRowsShape]);
op("Transpose", [blockRows], { perm: [0, 1, 2, 4, 3] }, GRAPH_OUTPUTS.gridV);

// Noise residual: the SRM "square 3x3" second-order high-pass (Fridrich & Kodovsky 2012).
const padAll = op("Pad", [grey, ints("pad_all", [0, 0, 1, 1, 0, 0, 1, 1])], { mode: "edge" });
const srm = [-1, 2, -1, 2, -4, 2, -1, 2, -1].map((v) => v / 4);
blockMean(op("Abs", [op("Conv", [padAll, floats("srm_3x3", [1, 1, 3, 3], srm)])]), GRAPH_OUTPUTS.noise);

// Error-level analysis: the page re-encoded as libjpeg (and so sharp) encodes its luma and
// decoded back as libjpeg decodes it, as tensor ops instead of a round trip through an encoder.
// Only luma: the luma of YCbCr decoded to RGB is Y again (the chroma terms cancel in the
// weights), so chroma's error would not show in the residual. The arithmetic is libjpeg's own
// "islow" integer DCTs (jfdctint.c, jidctint.c: Loeffler-Ligtenberg-Moschytz with 13-bit
// constants and rounding shifts between passes), not an exact DCT: a page saved by libjpeg
// comes back from libjpeg's round trip unchanged where its history is uniform, while an exact
// DCT differs from libjpeg by one grey level at a few per cent of pixels (measured: that
// noise on genuine lines lowered a pasted line's z by 0.2-0.5). Each pass is linear up to its
// final rounding shift, so it is a matrix product in float64 (exact on these integers)
// followed by floor((x + half) / 2^shift).
const CONST_BITS = 13;
const PASS1_BITS = 2;
const FIX = {
  c0_298631336: 2446,
  c0_390180644: 3196,
  c0_541196100: 4433,
  c0_765366865: 6270,
  c0_899976223: 7373,
  c1_175875602: 9633,
  c1_501321110: 12299,
  c1_847759065: 15137,
  c1_961570560: 16069,
  c2_053119869: 16819,
  c2_562915447: 20995,
  c3_072711026: 25172,
};

/**
 * One 1-D pass of jfdctint.c before its rounding shifts: 8 outputs (frequency order) of 8 samples.
 */
function forwardPass(d: number[], last: boolean): number[] {
  const [tmp0, tmp7, tmp1, tmp6, tmp2, tmp5, tmp3, tmp4] = [
    d[0]! + d[7]!,
    d[0]! - d[7]!,
    d[1]! + d[6]!,
    d[1]! - d[6]!,
    d[2]! + d[5]!,
    d[2]! - d[5]!,
    d[3]! + d[4]!,
    d[3]! - d[4]!,
  ];
  const [tmp10, tmp13, tmp11, tmp12] = [tmp0 + tmp3, tmp0 - tmp3, tmp1 + tmp2, tmp1 - tmp2];
  const out = new Array<number>(8);
  out[0] = (tmp10 + tmp11) * (last ? 1 : 1 << PASS1_BITS);
  out[4] = (tmp10 - tmp11) * (last ? 1 : 1 << PASS1_BITS);
  const z1 = (tmp12 + tmp13) * FIX.c0_541196100;
  out[2] = z1 + tmp13 * FIX.c0_765366865;
  out[6] = z1 - tmp12 * FIX.c1_847759065;
  const [a1, a2, a3, a4] = [tmp4 + tmp7, tmp5 + tmp6, tmp4 + tmp6, tmp5 + tmp7];
  const z5 = (a3 + a4) * FIX.c1_175875602;
  const [z1o, z2o, z3o, z4o] = [
    -a1 * FIX.c0_899976223,
    -a2 * FIX.c2_562915447,
    -a3 * FIX.c1_961570560 + z5,
    -a4 * FIX.c0_390180644 + z5,
  ];
  out[7] = tmp4 * FIX.c0_298631336 + z1o + z3o;
  out[5] = tmp5 * FIX.c2_053119869 + z2o + z4o;
  out[3] = tmp6 * FIX.c3_072711026 + z2o + z3o;
  out[1] = tmp7 * FIX.c1_501321110 + z1o + z4o;
  return out;
}
/**
 * The rounding shift jfdctint.c applies to each output of a pass (first pass: rows, last: columns).
 */
const forwardShift = (k: number, last: boolean) =>
  k === 0 || k === 4 ? (last ? PASS1_BITS : 0) : last ? CONST_BITS + PASS1_BITS : CONST_BITS - PASS1_BITS;

/** One 1-D pass of jidctint.c before its rounding shifts: 8 samples of 8 coefficients. */
function inversePass(c: number[]): number[] {
  const z1e = (c[2]! + c[6]!) * FIX.c0_541196100;
  const tmp2e = z1e - c[6]! * FIX.c1_847759065;
  const tmp3e = z1e + c[2]! * FIX.c0_765366865;
  const tmp0e = (c[0]! + c[4]!) * 2 ** CONST_BITS;
  const tmp1e = (c[0]! - c[4]!) * 2 ** CONST_BITS;
  const [tmp10, tmp13, tmp11, tmp12] = [tmp0e + tmp3e, tmp0e - tmp3e, tmp1e + tmp2e, tmp1e - tmp2e];
  const [t0, t1, t2, t3] = [c[7]!, c[5]!, c[3]!, c[1]!];
  const [a1, a2, a3, a4] = [t0 + t3, t1 + t2, t0 + t2, t1 + t3];
  const z5 = (a3 + a4) * FIX.c1_175875602;
  const [z1, z2, z3, z4] = [
    -a1 * FIX.c0_899976223,
    -a2 * FIX.c2_562915447,
    -a3 * FIX.c1_961570560 + z5,
    -a4 * FIX.c0_390180644 + z5,
  ];
  const tmp0 = t0 * FIX.c0_298631336 + z1 + z3;
  const tmp1 = t1 * FIX.c2_053119869 + z2 + z4;
  const tmp2 = t2 * FIX.c3_072711026 + z2 + z3;
  const tmp3 = t3 * FIX.c1_501321110 + z1 + z4;
  return [
    tmp10 + tmp3,
    tmp11 + tmp2,
    tmp12 + tmp1,
    tmp13 + tmp0,
    tmp13 - tmp0,
    tmp12 - tmp1,
    tmp11 - tmp2,
    tmp10 - tmp3,
  ];
}
const inverseShift = (last: boolean) => (last ? CONST_BITS + PASS1_BITS + 3 : CONST_BITS - PASS1_BITS);

/** The 8x8 matrix of a linear pass (row = output), read off by passing unit vectors through it. */
function passMatrix(pass: (x: number[]) => number[]): number[] {
  const m = new Array<number>(64);
  for (let j = 0; j < 8; j++)
    pass(Array.from({ length: 8 }, (_, i) => (i === j ? 1 : 0))).forEach((v, i) => {
      m[i * 8 + j] = v;
    });
  return m;
}
const transposed = (m: number[]) => m.map((_, i) => m[(i % 8) * 8 + Math.floor(i / 8)]!);

function doubles(name: string, dims: number[], values: ArrayLike<number>): string {
  initializers.push({ name, dims, dataType: DataType.DOUBLE, doubleData: Array.from(values) });
  return name;
}

/** floor((x + 2^(shift-1)) / 2^shift) per row (first axis index) or column of an [N,8,8] tensor. */
function descale(x: string, shifts: number[], name: string, alongRows: boolean): string {
  const dims = alongRows ? [8, 1] : [1, 8];
  const half = doubles(
    `${name}_half`,
    dims,
    shifts.map((n) => (n === 0 ? 0 : 2 ** (n - 1))),
  );
  const divisor = doubles(
    `${name}_divisor`,
    dims,
    shifts.map((n) => 2 ** n),
  );
  return op("Floor", [op("Div", [op("Add", [x, half]), divisor])]);
}

// Blocks as [N, 8 rows, 8 columns] of luma − 128 (the encoder converts to 8-bit luma first).
const shape = op("Shape", [grey]);
const blockGrid = op("Div", [
  op("Slice", [shape, ints("hw_from", [2]), ints("hw_to", [4])]),
  ints("block_side", [BLOCK]),
]);
const gridRows = op("Slice", [blockGrid, ints("first_from", [0]), ints("first_to", [1])]);
const gridCols = op("Slice", [blockGrid, ints("second_from", [1]), ints("second_to", [2])]);
const eight = ints("eight", [BLOCK]);
const levelShift = floats("level_shift", [], [128]);
const split = op("Reshape", [
  op("Sub", [op("Round", [grey]), levelShift]),
  op("Concat", [gridRows, eight, gridCols, eight], { axis: 0 }),
]);
const samples = op(
  "Cast",
  [op("Reshape", [op("Transpose", [split], { perm: [0, 2, 1, 3] }), ints("blocks_8x8", [-1, BLOCK, BLOCK])])],
  { to: DataType.DOUBLE },
);

// Forward: rows (x -> u), then columns (y -> v): 8 x the DCT, as jfdctint.c leaves it.
const rowsFdct = passMatrix((d) => forwardPass(d, false));
const colsFdct = passMatrix((d) => forwardPass(d, true));
const afterRows = descale(
  op("MatMul", [samples, doubles("fdct_rows", [8, 8], transposed(rowsFdct))]),
  Array.from({ length: 8 }, (_, k) => forwardShift(k, false)),
  "fdct_rows",
  false,
);
const scaled = descale(
  op("MatMul", [doubles("fdct_cols", [8, 8], colsFdct), afterRows]),
  Array.from({ length: 8 }, (_, k) => forwardShift(k, true)),
  "fdct_cols",
  true,
);
// jcdctmgr.c: quantised = sign * floor((|8c| + 4q) / 8q), rounding halves away from zero.
const steps = op("Cast", [op("Reshape", [GRAPH_INPUTS.elaSteps, ints("steps_shape", [1, BLOCK, BLOCK])])], {
  to: DataType.DOUBLE,
});
const eightSteps = op("Mul", [steps, doubles("dct_scale", [], [8])]);
const halfSteps = op("Mul", [steps, doubles("dct_half_scale", [], [4])]);
const magnitude = op("Floor", [op("Div", [op("Add", [op("Abs", [scaled]), halfSteps]), eightSteps])]);
const dequantised = op("Mul", [op("Mul", [op("Sign", [scaled]), magnitude]), steps]);

// Inverse: columns (v -> y), then rows (u -> x), then + 128 and the 8-bit range.
const idct = passMatrix(inversePass);
const afterCols = descale(
  op("MatMul", [doubles("idct_cols", [8, 8], idct), dequantised]),
  Array(8).fill(inverseShift(false)),
  "idct_cols",
  true,
);
const decodedBlocks = descale(
  op("MatMul", [afterCols, doubles("idct_rows", [8, 8], transposed(idct))]),
  Array(8).fill(inverseShift(true)),
  "idct_rows",
  false,
);
const decodedGrid = op("Reshape", [
  op("Cast", [decodedBlocks], { to: DataType.FLOAT }),
  op("Concat", [gridRows, gridCols, eight, eight], { axis: 0 }),
]);
const decoded = op("Reshape", [op("Transpose", [decodedGrid], { perm: [0, 2, 1, 3] }), shape]);
const decoded8 = op("Clip", [
  op("Add", [decoded, levelShift]),
  floats("byte_low", [], [0]),
  floats("byte_high", [], [255]),
]);
blockMean(op("Abs", [op("Sub", [grey, decoded8])]), GRAPH_OUTPUTS.ela);

// Copy-move features: the separable 16-point orthonormal DCT, rows then columns, taken
// every CM_STEP pixels; the column pass is grouped so each row frequency gets its own column
// frequencies.
const rowKernel = new Float32Array(CM_FREQS * CM_BLOCK);
for (let u = 0; u < CM_FREQS; u++) for (let n = 0; n < CM_BLOCK; n++) rowKernel[u * CM_BLOCK + n] = cmBasis(u, n);
const colKernel = new Float32Array(CM_FREQS * CM_FREQS * CM_BLOCK);
for (let u = 0; u < CM_FREQS; u++) {
  for (let v = 0; v < CM_FREQS; v++)
    for (let n = 0; n < CM_BLOCK; n++) colKernel[(u * CM_FREQS + v) * CM_BLOCK + n] = cmBasis(v, n);
}
const rowPass = op("Conv", [grey, floats("cm_rows", [CM_FREQS, 1, 1, CM_BLOCK], rowKernel)], { strides: [1, CM_STEP] });
const cmFeatures = op("Conv", [rowPass, floats("cm_cols", [CM_FREQS * CM_FREQS, 1, CM_BLOCK, 1], colKernel)], {
  strides: [CM_STEP, 1],
  group: CM_FREQS,
});
// Only textured blocks are ever compared, and on a text page they are a small share: the
// graph hands back those alone (their indices and features) instead of every block's.
const perBlock = op("Reshape", [cmFeatures, ints("cm_planes", [CM_FREQS * CM_FREQS, -1])]);
const acEnergy = op(
  "ReduceSumSquare",
  [op("Slice", [perBlock, ints("ac_from", [1]), ints("ac_to", [CM_FREQS * CM_FREQS]), ints("ac_axis", [0])])],
  {
    axes: [0],
    keepdims: 0,
  },
);
const isTextured = op("GreaterOrEqual", [acEnergy, floats("cm_min_ac_energy", [], [CM_MIN_AC_ENERGY])]);
const textured = op(
  "Cast",
  [op("Reshape", [op("NonZero", [isTextured]), ints("flat", [-1])])],
  { to: DataType.INT32 },
  GRAPH_OUTPUTS.copyMoveBlocks,
);
op("Gather", [perBlock, textured], { axis: 1 }, GRAPH_OUTPUTS.copyMoveFeatures);

const rgbType = (name: string): onnx.IValueInfoProto => ({
  name,
  type: {
    tensorType: { elemType: DataType.UINT8, shape: { dim: [{ dimParam: "H" }, { dimParam: "W" }, { dimValue: 3 }] } },
  },
});
const output = (name: string): onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType: name === GRAPH_OUTPUTS.copyMoveBlocks ? DataType.INT32 : DataType.FLOAT } },
});

const model = onnx.ModelProto.create({
  irVersion: 8,
  producerName: "docverify scripts/models/build-forensics-graphs.ts",
  opsetImport: [{ domain: "", version: OPSET }],
  graph: {
    name: "forensics_maps",
    node: nodes,
    initializer: initializers,
    input: [
      rgbType(GRAPH_INPUTS.rgb),
      {
        name: GRAPH_INPUTS.elaSteps,
        type: { tensorType: { elemType: DataType.FLOAT, shape: { dim: [{ dimValue: 64 }] } } },
      },
    ],
    output: Object.values(GRAPH_OUTPUTS).map(output),
  },
});

const target = join(import.meta.dir, "..", "..", "sidecar", "models", "forensics", GRAPH_FILE);
const bytes = onnx.ModelProto.encode(model).finish();
await writeFile(target, bytes);
console.log(`wrote ${target} (${bytes.byteLength} bytes, ${nodes.length} nodes)`);
