/**
 * USE Lite on its two runtimes: the ONNX graph built from the package's TensorFlow.js weights
 * (src/models/useLiteGraph.ts, written by src/models/onnxModel.ts) must compute what the package's
 * own graph computes on TensorFlow.js, and a text's vector must not depend on its company.
 */
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { chooseModels } from '../../../src/models/choose.js';
import { encodeOnnxModel } from '../../../src/models/onnxModel.js';
import { UseLiteEmbedder } from '../../../src/models/useEmbedder.js';
import { withCode } from '../../support/errorCodes.js';

const SENTENCES = [
  'The observatory operates three optical telescopes.',
  'The observatory operates four optical telescopes.',
  'Its chief executive is Dana Holt.',
  'It has two branches.',
  'The tunnel is 5 kilometres long and was opened in 1988 by the minister of transport.',
  "Berlin is the capital and largest city of Germany, both by area and by population; its 3.85 million inhabitants make it the European Union's most populous city.",
  // Longer than the 128 tokens both graphs keep.
  Array.from({ length: 150 }, (_, k) => `clause ${k} of a very long sentence`).join(', ') + '.',
  'Short.',
];

function maxDifference(a: Float32Array, b: Float32Array): number {
  return a.reduce((max, value, i) => Math.max(max, Math.abs(value - (b[i] as number))), 0);
}

describe('the ONNX model writer', () => {
  it('writes a graph that ONNX Runtime runs, with its initializers, integer and float attributes', async () => {
    const bytes = encodeOnnxModel({
      name: 'tiny',
      nodes: [
        { op: 'Add', inputs: ['x', 'bias'], outputs: ['shifted'] },
        { op: 'LayerNormalization', inputs: ['shifted', 'scale', 'offset'], outputs: ['normed'], attributes: { axis: -1, epsilon: { float: 0.5 } } },
        { op: 'Transpose', inputs: ['normed'], outputs: ['y'], attributes: { perm: [1, 0] } },
      ],
      initializers: [
        { name: 'bias', dims: [2], data: Float32Array.of(1, -1) },
        { name: 'scale', dims: [2], data: Float32Array.of(2, 2) },
        { name: 'offset', dims: [2], data: Float32Array.of(0, 10) },
      ],
      inputs: [{ name: 'x', type: 'float', shape: ['rows', 2] }],
      outputs: [{ name: 'y', type: 'float', shape: [2, 'rows'] }],
    });
    const session = await ort.InferenceSession.create(bytes);
    const output = await session.run({ x: new ort.Tensor('float32', Float32Array.of(0, 0, 3, 3), [2, 2]) });
    // Row [1, -1]: mean 0, variance 1, so 2 * x / sqrt(1 + 0.5) + [0, 10]; row [4, 2] the same shape.
    const k = 2 / Math.sqrt(1.5);
    expect(output['y']?.dims).toEqual([2, 2]);
    expect([...(output['y']?.data as Float32Array)].map((v) => Number(v.toFixed(4)))).toEqual([k, k, 10 - k, 10 - k].map((v) => Number(v.toFixed(4))));
  });
});

describe('USE Lite on ONNX Runtime and on TensorFlow.js', () => {
  it('gives the same vectors on both runtimes, to 1e-6 per component', async () => {
    const native = await new UseLiteEmbedder().embed(SENTENCES);
    const wasm = await new UseLiteEmbedder({ runtime: 'wasm' }).embed(SENTENCES);
    for (const [k, vector] of native.entries()) {
      expect(vector).toHaveLength(512);
      expect(maxDifference(vector, wasm[k] as Float32Array), SENTENCES[k]).toBeLessThan(1e-6);
    }
  }, 60_000);

  it('gives a text the same vector alone as in any company, to the last bit', async () => {
    const embedder = new UseLiteEmbedder();
    const together = await embedder.embed(SENTENCES);
    for (const [k, sentence] of SENTENCES.entries()) {
      const [alone] = await embedder.embed([sentence]);
      expect(alone, sentence).toEqual(together[k]);
    }
    const copies = await embedder.embed(Array.from({ length: 20 }, () => SENTENCES[0] as string));
    expect(copies.every((vector) => maxDifference(vector, together[0] as Float32Array) === 0)).toBe(true);
  }, 60_000);

  it('names each runtime, so that the store never mixes their vectors', async () => {
    expect(new UseLiteEmbedder().id).toBe('use-lite');
    expect(new UseLiteEmbedder({ runtime: 'wasm' }).id).toBe('use-lite/wasm');
    expect((await chooseModels({ embeddingRuntime: 'wasm' })).embedder.id).toBe('use-lite/wasm');
    await expect(chooseModels({ embeddingRuntime: 'fast' })).rejects.toThrow(withCode('E_FLAG_INVALID'));
    await expect(chooseModels({ embeddingModel: 'models/x', sameThreshold: 0.9, embeddingRuntime: 'wasm' })).rejects.toThrow(withCode('E_FLAGS_CONFLICT'));
  });

  it('gives an empty text a zero vector', async () => {
    const [empty] = await new UseLiteEmbedder().embed(['']);
    expect(empty?.every((value) => value === 0)).toBe(true);
  });
});
