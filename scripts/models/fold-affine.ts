// Graph rewrites that make PP-OCRv4's recognition backbone (PP-LCNetV3) cheaper on a CPU
// without changing what it computes. paddle2onnx exports each block as
//   Conv -> Mul(s1) -> Add(b1) -> hardswish as Add(3), Clip(0,6), Mul, Div(6)
//     -> Mul(s2) -> Add(b2) -> next Conv
// (the Mul/Add pairs are the "learnable affine blocks" with scalar scale and bias), so every
// convolution is followed by eight full passes over its output; ONNX Runtime fuses none of
// them (measured: Mul, Add, Clip and Div took ~58% of session.run, the convolutions ~27%).
// Rewritten:
//   - a scalar affine after a Conv goes into its weights and bias: s1*(W*x + B) + b1;
//   - hardswish becomes x * HardSigmoid(x) (alpha 1/6, beta 1/2), its definition, in two ops
//     (HardSwish itself needs opset 14 and the graph is opset 9);
//   - a scalar affine before a Conv goes into its weights: W*(s2*h + b2) = (s2*W)*h + W*b2.
//     Without padding W*b2 is a per-output-channel constant added to the bias. With zero
//     padding the border would see b2 where the original saw 0 (the feature maps are 3 to 24
//     rows high, so the border is most of them: folding it anyway reads nothing), so there
//     h + b2/s2 is computed before the convolution with s2*W, which is exact at the border
//     too. It is computed as a 1x1 depthwise Conv with weight 1 and bias b2/s2, not as an
//     Add: ONNX Runtime runs the Convs in its blocked NCHWc layout, a scalar Add is not run
//     in that layout, and the layout conversions around each Add cost more than the Add
//     (measured: ~20% of session.run with Adds, ~3% with these Convs).
// Every rewrite checks the pattern fully (scalar constants, a single consumer at each step)
// and leaves anything else alone.
import { onnx } from "onnx-proto";
import { type GraphIndex, floatValues, otherInput, setFloatValues } from "./onnx-graph.ts";

const { AttributeType } = onnx.AttributeProto;

/** A node whose other input is a scalar constant, and that constant. */
function scalarOperand(
  index: GraphIndex,
  node: onnx.INodeProto | undefined,
  opType: string,
  input: string,
): number | undefined {
  if (node?.opType !== opType || node.input!.length !== 2 || !node.input!.includes(input)) return undefined;
  return index.scalar(otherInput(node, input));
}

function convParts(
  index: GraphIndex,
  conv: onnx.INodeProto,
): { weights: onnx.ITensorProto; bias: onnx.ITensorProto | undefined } | undefined {
  const weights = index.constants.get(conv.input![1]!);
  const bias = conv.input![2] ? index.constants.get(conv.input![2]) : undefined;
  if (!weights || (conv.input![2] && !bias)) return undefined;
  // A bias constant shared with another node must not change under it.
  if (index.consumers(conv.input![1]!).length !== 1 || (conv.input![2] && index.consumers(conv.input![2]).length !== 1))
    return undefined;
  return { weights, bias };
}

function ensureBias(
  index: GraphIndex,
  conv: onnx.INodeProto,
  weights: onnx.ITensorProto,
  bias: onnx.ITensorProto | undefined,
): Float32Array {
  const outputs = Number(weights.dims![0]);
  if (bias) return floatValues(bias);
  conv.input![2] = index.addConstant(`${conv.output![0]}.folded_bias`, [outputs], new Float32Array(outputs), conv);
  return new Float32Array(outputs);
}

/**
 * Conv -> Mul(s) -> Add(b) becomes one Conv with weights s*W and bias s*B + b. Returns how many
 * were folded.
 */
export function foldAffineAfterConv(index: GraphIndex): number {
  let folded = 0;
  for (const conv of [...index.graph.node!].filter((n) => n.opType === "Conv")) {
    const out = conv.output![0]!;
    const mul = index.soleConsumer(out);
    const scale = scalarOperand(index, mul, "Mul", out);
    const add = mul && index.soleConsumer(mul.output![0]!);
    const shift = scalarOperand(index, add, "Add", mul?.output?.[0] ?? "");
    const parts = convParts(index, conv);
    if (scale === undefined || shift === undefined || !parts) continue;
    const w = floatValues(parts.weights).map((v) => v * scale);
    const b = ensureBias(index, conv, parts.weights, parts.bias).map((v) => v * scale + shift);
    setFloatValues(parts.weights, parts.weights.dims!.map(Number), w);
    setFloatValues(index.constants.get(conv.input![2]!)!, [b.length], b);
    conv.output = [add!.output![0]!];
    index.remove([mul!, add!]);
    folded++;
  }
  return folded;
}

const clipBounds = (clip: onnx.INodeProto): [number, number] | undefined => {
  if (clip.input!.length !== 1) return undefined;
  const attr = (name: string) => clip.attribute!.find((a) => a.name === name)?.f;
  const [lo, hi] = [attr("min"), attr("max")];
  return lo === undefined || lo === null || hi === undefined || hi === null ? undefined : [lo, hi];
};

/**
 * Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(., 6) becomes Mul(x, HardSigmoid(x)). Returns how
 * many were replaced.
 */
export function fuseHardSwish(index: GraphIndex): number {
  let fused = 0;
  for (const add of [...index.graph.node!].filter((n) => n.opType === "Add")) {
    const x = add.input!.find((name) => index.scalar(name) === undefined);
    if (x === undefined || scalarOperand(index, add, "Add", x) !== 3) continue;
    const clip = index.soleConsumer(add.output![0]!);
    const bounds = clip?.opType === "Clip" ? clipBounds(clip) : undefined;
    if (bounds?.[0] !== 0 || bounds[1] !== 6) continue;
    const mul = index.soleConsumer(clip!.output![0]!);
    if (mul?.opType !== "Mul" || otherInput(mul, clip!.output![0]!) !== x) continue;
    const div = index.soleConsumer(mul.output![0]!);
    if (scalarOperand(index, div, "Div", mul.output![0]!) !== 6) continue;

    const gate = `${div!.output![0]}.hardsigmoid`;
    add.opType = "HardSigmoid";
    add.input = [x];
    add.output = [gate];
    add.attribute = [
      { name: "alpha", type: AttributeType.FLOAT, f: 1 / 6 },
      { name: "beta", type: AttributeType.FLOAT, f: 0.5 },
    ];
    mul.input = [x, gate];
    mul.output = [div!.output![0]!];
    index.remove([clip!, div!]);
    fused++;
  }
  return fused;
}

const hasPadding = (conv: onnx.INodeProto): boolean => {
  const pads = conv.attribute!.find((a) => a.name === "pads");
  const autoPad = conv.attribute!.find((a) => a.name === "auto_pad");
  const autoPadValue = autoPad?.s ? new TextDecoder().decode(autoPad.s) : "NOTSET";
  return autoPadValue !== "NOTSET" && autoPadValue !== "VALID" ? true : (pads?.ints ?? []).some((p) => Number(p) !== 0);
};

/**
 * Mul(h, s) -> Add(b) -> Conv becomes Conv(s*W) on h (or on h + b/s when the Conv pads). Returns
 * how many were folded.
 */
export function foldAffineBeforeConv(index: GraphIndex): number {
  let folded = 0;
  for (const mul of [...index.graph.node!].filter((n) => n.opType === "Mul")) {
    const h = mul.input!.find((name) => index.scalar(name) === undefined);
    const scale = h === undefined ? undefined : scalarOperand(index, mul, "Mul", h);
    const add = index.soleConsumer(mul.output![0]!);
    const shift = scalarOperand(index, add, "Add", mul.output![0]!);
    const conv = add && index.soleConsumer(add.output![0]!);
    if (
      scale === undefined ||
      shift === undefined ||
      Math.abs(scale) < 1e-3 ||
      conv?.opType !== "Conv" ||
      conv.input![0] !== add!.output![0]
    )
      continue;
    const parts = convParts(index, conv);
    if (!parts) continue;
    const dims = parts.weights.dims!.map(Number);
    const perOutput = dims.slice(1).reduce((a, b) => a * b, 1);
    const w = floatValues(parts.weights);
    const scaled = w.map((v) => v * scale);
    setFloatValues(parts.weights, dims, scaled);
    if (hasPadding(conv)) {
      const channels = dims[1]! * Number(conv.attribute!.find((a) => a.name === "group")?.i ?? 1);
      const name = add!.output![0]!;
      const ones = index.addConstant(
        `${name}.identity_w`,
        [channels, 1, 1, 1],
        new Float32Array(channels).fill(1),
        add!,
      );
      const shifts = index.addConstant(
        `${name}.identity_b`,
        [channels],
        new Float32Array(channels).fill(shift / scale),
        add!,
      );
      add!.opType = "Conv";
      add!.input = [h!, ones, shifts];
      add!.attribute = [
        { name: "group", type: AttributeType.INT, i: channels },
        { name: "kernel_shape", type: AttributeType.INTS, ints: [1, 1] },
      ];
      index.remove([mul]);
    } else {
      const b = ensureBias(index, conv, parts.weights, parts.bias);
      for (let o = 0; o < b.length; o++) {
        let sum = 0;
        for (let k = 0; k < perOutput; k++) sum += w[o * perOutput + k]!;
        b[o] = b[o]! + shift * sum;
      }
      setFloatValues(index.constants.get(conv.input![2]!)!, [b.length], b);
      conv.input![0] = h!;
      index.remove([mul, add!]);
    }
    folded++;
  }
  return folded;
}
