// Small helpers for editing a decoded ONNX graph (onnx-proto) whose weights are Constant nodes,
// as paddle2onnx writes them: finding a tensor's producer and consumers, reading and replacing
// float constants, and removing nodes.
import { onnx } from "onnx-proto";

export class GraphIndex {
  readonly constants = new Map<string, onnx.ITensorProto>();
  private readonly producers = new Map<string, onnx.INodeProto>();
  private readonly consumerLists = new Map<string, onnx.INodeProto[]>();
  private readonly outputs: Set<string>;

  constructor(readonly graph: onnx.IGraphProto) {
    this.outputs = new Set(graph.output!.map((o) => o.name!));
    this.rebuild();
  }

  /** Re-reads the node list after nodes were rewired or removed. */
  rebuild(): void {
    this.constants.clear();
    this.producers.clear();
    this.consumerLists.clear();
    for (const node of this.graph.node!) {
      for (const output of node.output!) this.producers.set(output, node);
      for (const input of node.input!) {
        if (!this.consumerLists.has(input)) this.consumerLists.set(input, []);
        this.consumerLists.get(input)!.push(node);
      }
      if (node.opType === "Constant") {
        const value = node.attribute!.find((a) => a.name === "value")?.t;
        if (value) this.constants.set(node.output![0]!, value);
      }
    }
  }

  producer(name: string): onnx.INodeProto | undefined {
    return this.producers.get(name);
  }

  consumers(name: string): onnx.INodeProto[] {
    return this.consumerLists.get(name) ?? [];
  }

  /** The single node reading `name`, when nothing else (not even a graph output) reads it. */
  soleConsumer(name: string): onnx.INodeProto | undefined {
    const list = this.consumers(name);
    return list.length === 1 && !this.outputs.has(name) ? list[0] : undefined;
  }

  /** The value of a one-element float Constant, or undefined. */
  scalar(name: string): number | undefined {
    const tensor = this.constants.get(name);
    if (!tensor || tensor.dataType !== onnx.TensorProto.DataType.FLOAT) return undefined;
    const values = floatValues(tensor);
    return values.length === 1 ? values[0] : undefined;
  }

  /** Adds a float Constant node before `before` and returns its output name. */
  addConstant(name: string, dims: number[], values: Float32Array, before: onnx.INodeProto): string {
    const tensor: onnx.ITensorProto = { name, dataType: onnx.TensorProto.DataType.FLOAT };
    setFloatValues(tensor, dims, values);
    const node: onnx.INodeProto = {
      opType: "Constant",
      input: [],
      output: [name],
      name,
      attribute: [{ name: "value", type: onnx.AttributeProto.AttributeType.TENSOR, t: tensor }],
    };
    this.graph.node!.splice(this.graph.node!.indexOf(before), 0, node);
    this.constants.set(name, tensor);
    return name;
  }

  /**
   * Drops Constant nodes nothing reads any more (rewrites leave the scalars they folded behind).
   */
  pruneConstants(): number {
    const unused = this.graph.node!.filter(
      (n) => n.opType === "Constant" && n.output!.every((o) => this.consumers(o).length === 0 && !this.outputs.has(o)),
    );
    this.remove(unused);
    return unused.length;
  }

  remove(nodes: onnx.INodeProto[]): void {
    const gone = new Set(nodes);
    this.graph.node = this.graph.node!.filter((n) => !gone.has(n));
    this.rebuild();
  }
}

export function floatValues(tensor: onnx.ITensorProto): Float32Array {
  if (tensor.dataType !== onnx.TensorProto.DataType.FLOAT) throw new Error(`${tensor.name} is not a float tensor`);
  const raw = tensor.rawData;
  if (raw && raw.byteLength > 0)
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  return Float32Array.from(tensor.floatData ?? []);
}

export function setFloatValues(tensor: onnx.ITensorProto, dims: number[], values: Float32Array): void {
  tensor.dims = dims;
  tensor.floatData = [];
  tensor.rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** The other input of a two-input node, given one of them. */
export function otherInput(node: onnx.INodeProto, name: string): string {
  const [a, b] = node.input as [string, string];
  return a === name ? b : a;
}
