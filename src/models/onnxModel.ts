/**
 * Writes an ONNX model (the ModelProto of onnx.proto) from a graph described in plain data, so
 * that a model shipped in another format runs on ONNX Runtime without a conversion tool: only the
 * fields a float inference graph needs, in protobuf's wire format.
 */

/** An integer, a list of integers, or a float (marked, as 1.0 and 1 are the same number here). */
export type AttributeValue = number | number[] | { float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, AttributeValue>;
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

/** A graph input or output: its element type and shape, a string for a dimension known only at run time. */
export interface OnnxValue {
  name: string;
  type: 'float' | 'int64';
  shape: Array<number | string>;
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

/** TensorProto.DataType values. */
const FLOAT = 1;
const INT64 = 7;
/** AttributeProto.AttributeType values. */
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;
/** LayerNormalization needs opset 17; IR version 8 is the one that opset came with. */
const IR_VERSION = 8;
const OPSET = 17;

/** Protobuf's wire format, appended field by field. */
class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  private varint(value: bigint | number): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      const low = Number(rest & 0x7fn);
      rest >>= 7n;
      bytes.push(rest === 0n ? low : low | 0x80);
    } while (rest !== 0n);
    this.push(Uint8Array.from(bytes));
  }

  private tag(field: number, wireType: 0 | 2 | 5): void {
    this.varint((field << 3) | wireType);
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, write: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

function writeAttribute(writer: ProtoWriter, name: string, value: AttributeValue): void {
  writer.string(1, name);
  if (typeof value === 'number') writer.int(3, value).int(20, ATTRIBUTE_INT);
  else if (Array.isArray(value)) {
    for (const item of value) writer.int(8, item);
    writer.int(20, ATTRIBUTE_INTS);
  } else writer.float(2, value.float).int(20, ATTRIBUTE_FLOAT);
}

function writeTensor(writer: ProtoWriter, tensor: OnnxInitializer): void {
  for (const dim of tensor.dims) writer.int(1, dim);
  writer.int(2, tensor.data instanceof Float32Array ? FLOAT : INT64);
  writer.string(8, tensor.name);
  writer.bytes(9, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
}

function writeValue(writer: ProtoWriter, value: OnnxValue): void {
  writer.string(1, value.name);
  writer.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, value.type === 'float' ? FLOAT : INT64);
      tensor.message(2, (shape) => {
        for (const dim of value.shape) {
          shape.message(1, (d) => (typeof dim === 'number' ? d.int(1, dim) : d.string(2, dim)));
        }
      });
    }),
  );
}

/** The serialised ModelProto, as `InferenceSession.create` takes it. */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const model = new ProtoWriter();
  model.int(1, IR_VERSION);
  model.string(2, 'wikidelta');
  model.message(7, (g) => {
    graph.nodes.forEach((node, k) =>
      g.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, `${node.op}_${k}`);
        n.string(4, node.op);
        for (const [name, value] of Object.entries(node.attributes ?? {})) n.message(5, (a) => writeAttribute(a, name, value));
      }),
    );
    g.string(2, graph.name);
    for (const tensor of graph.initializers) g.message(5, (t) => writeTensor(t, tensor));
    for (const input of graph.inputs) g.message(11, (v) => writeValue(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValue(v, output));
  });
  model.message(8, (opset) => opset.string(1, '').int(2, OPSET));
  return model.finish();
}
