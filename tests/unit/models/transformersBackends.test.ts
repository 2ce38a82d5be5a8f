import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { env } from '@huggingface/transformers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../../../src/models/embedder.js';
import { TransformersEmbedder } from '../../../src/models/transformersEmbedder.js';
import { TransformersNli } from '../../../src/models/transformersNli.js';
import { labelArticle } from '../../../src/labels/labeler.js';
import { writeTinyModel } from '../../support/tinyModel.js';
import { withCode } from '../../support/errorCodes.js';
import { chooseModels } from '../../../src/models/choose.js';
import { configureTransformers } from '../../../src/models/transformersEnv.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wikidelta-models-'));
  writeTinyModel(join(root, 'tiny-embedder'), 'feature');
  writeTinyModel(join(root, 'tiny-nli'), 'classifier');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('@huggingface/transformers backends on a tiny local ONNX model (random weights, CPU, offline)', () => {
  it('embeds sentences by feature extraction: one normalised vector per text, equal texts equal', async () => {
    const embedder = new TransformersEmbedder({ model: join(root, 'tiny-embedder'), sameThreshold: 0.99 });
    const [a, b, c] = await embedder.embed(['The port city has a mayor.', 'The port city has a mayor.', 'The old bridge opened in 2023.']);
    expect(a).toHaveLength(16);
    expect(cosine(a as Float32Array, b as Float32Array)).toBeCloseTo(1, 6);
    expect(cosine(a as Float32Array, c as Float32Array)).toBeLessThan(0.999);
    expect(Math.hypot(...(a as Float32Array))).toBeCloseTo(1, 4);
    expect(embedder.id).toBe('transformers:tiny-embedder');
  });

  it('classifies batched premise/hypothesis pairs into probabilities named by id2label', async () => {
    const nli = new TransformersNli({ model: join(root, 'tiny-nli') });
    const pairs = Array.from({ length: 20 }, (_, k) => ({ premise: `The port handled ${k} million tonnes of cargo.`, hypothesis: k % 2 ? 'The city has a mayor.' : 'The port city.' }));
    const scores = await nli.classify(pairs);
    expect(scores).toHaveLength(20);
    for (const score of scores) expect(score.entailment + score.neutral + score.contradiction).toBeCloseTo(1, 5);
    // Random weights give different logits for different pairs: proof the pair reached the model.
    expect(new Set(scores.map((score) => score.entailment.toFixed(6))).size).toBeGreaterThan(1);
  });

  it('runs the labeler end to end with both backends', async () => {
    const labels = await labelArticle(
      ['The port city has a mayor.', 'The council has 31 members.', 'The bridge opened in 2023.'],
      ['The port city has a mayor.', 'The council has 33 members.', 'The old railway line opened in 2024.'],
      { embedder: new TransformersEmbedder({ model: join(root, 'tiny-embedder'), sameThreshold: 0.99 }), nli: new TransformersNli({ model: join(root, 'tiny-nli') }) },
    );
    expect(labels.sentences).toHaveLength(3);
    expect(labels.sentences[0]).toMatchObject({ label: 'unchanged', backend: 'hash' });
    expect(labels.sentences.slice(1).every((label) => label.backend.includes('transformers:tiny'))).toBe(true);
  });
});

describe('local model directories given on the command line', () => {
  it('are refused before any model loads when missing, not a directory, or without the model files', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const file = join(root, 'file.txt');
    writeFileSync(file, 'not a model');
    for (const dir of [join(root, 'missing'), file, empty]) {
      await expect(chooseModels({ nliModel: dir })).rejects.toThrow(withCode('E_FILE_UNREADABLE', dir));
      await expect(chooseModels({ embeddingModel: dir, sameThreshold: 0.9 })).rejects.toThrow(withCode('E_FILE_UNREADABLE', dir));
    }
    expect((await chooseModels({ nliModel: join(root, 'tiny-nli') })).nli).toBeInstanceOf(TransformersNli);
  });

  it('load a directory right under the root from the root, not from the working directory', () => {
    expect(configureTransformers({ model: '/model' })).toBe('model');
    expect(env.localModelPath).toBe('/');
    expect(configureTransformers({ model: 'models/tiny' })).toBe('tiny');
    expect(env.localModelPath).toBe('models/');
  });
});
