/** Sentence embeddings from an ONNX model through transformers.js feature extraction (mean pooling, normalised). */
import { pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Embedder } from './embedder.js';
import { configureTransformers, type ModelLocation } from './transformersEnv.js';

const BATCH = 32;

export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly sameThreshold: number;
  private extractor: Promise<FeatureExtractionPipeline> | null = null;

  /** `sameThreshold` must be calibrated for the model (GrowOVER used 0.99 for SimCSE). */
  constructor(private readonly location: ModelLocation & { sameThreshold: number }) {
    this.id = `transformers:${location.model.replace(/\/+$/, '').split('/').pop()}`;
    this.sameThreshold = location.sameThreshold;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.extractor ??= pipeline('feature-extraction', configureTransformers(this.location), { dtype: 'fp32' }) as Promise<FeatureExtractionPipeline>;
    const extractor = await this.extractor;
    const vectors: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += BATCH) {
      const output = await extractor([...texts.slice(at, at + BATCH)], { pooling: 'mean', normalize: true });
      const [rows, width] = output.dims as [number, number];
      const data = output.data as Float32Array;
      for (let row = 0; row < rows; row++) vectors.push(data.slice(row * width, (row + 1) * width));
    }
    return vectors;
  }
}
