/**
 * NLI with a sequence-classification cross-encoder through transformers.js: premise/hypothesis
 * pairs tokenised together (`text_pair`) in batches, class probabilities by softmax over the
 * logits, classes named by the model's own `id2label` (models order them differently).
 */
import { AutoModelForSequenceClassification, AutoTokenizer, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { UserError } from '../errors.js';
import type { NliScores } from '../model/labels.js';
import type { NliModel, NliPair } from './nli.js';
import { configureTransformers, type ModelLocation } from './transformersEnv.js';

const BATCH = 16;

interface Loaded {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  /** Column of each class in the logits. */
  columns: Record<keyof NliScores, number>;
}

export class TransformersNli implements NliModel {
  readonly id: string;
  private loaded: Promise<Loaded> | null = null;

  constructor(private readonly location: ModelLocation) {
    this.id = `transformers:${location.model.replace(/\/+$/, '').split('/').pop()}`;
  }

  async classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    this.loaded ??= this.load();
    const { tokenizer, model, columns } = await this.loaded;
    const scores: NliScores[] = [];
    for (let at = 0; at < pairs.length; at += BATCH) {
      const batch = pairs.slice(at, at + BATCH);
      const inputs = tokenizer(
        batch.map((pair) => pair.premise),
        { text_pair: batch.map((pair) => pair.hypothesis), padding: true, truncation: true },
      );
      const { logits } = (await model(inputs)) as { logits: { dims: number[]; data: Float32Array } };
      const width = logits.dims[1] as number;
      for (let row = 0; row < batch.length; row++) {
        const probabilities = softmax(Array.from(logits.data.slice(row * width, (row + 1) * width)));
        scores.push({
          entailment: probabilities[columns.entailment] as number,
          neutral: probabilities[columns.neutral] as number,
          contradiction: probabilities[columns.contradiction] as number,
        });
      }
    }
    return scores;
  }

  private async load(): Promise<Loaded> {
    const id = configureTransformers(this.location);
    const tokenizer = await AutoTokenizer.from_pretrained(id);
    const model = await AutoModelForSequenceClassification.from_pretrained(id, { dtype: 'fp32' });
    const id2label = (model.config as unknown as { id2label?: Record<string, string> }).id2label ?? {};
    const columnOf = (name: keyof NliScores) => {
      const entry = Object.entries(id2label).find(([, label]) => label.toLowerCase().startsWith(name.slice(0, 7)));
      if (!entry) throw new UserError('E_MODEL_INVALID', `NLI model ${this.location.model} has no "${name}" class in its id2label (${JSON.stringify(id2label)})`);
      return Number(entry[0]);
    };
    return { tokenizer, model, columns: { entailment: columnOf('entailment'), neutral: columnOf('neutral'), contradiction: columnOf('contradiction') } };
  }
}

function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((value) => Math.exp(value - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}
