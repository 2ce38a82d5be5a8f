/**
 * What the baselines share: each item's answer asked of the task provider (a bounded number at a
 * time, so 100,000 queries never hold 100,000 pending calls; the provider's own queue sets the
 * rate), in item order, as the `{id, prediction}` lines `evaluate` reads. An item the model answered
 * badly or without a reference is predicted as the empty answer, a no-answer phrase, and counted;
 * a failure of the LLM service is thrown by the provider (docs/ARCHITECTURE.md §6) and ends the run.
 */
import type { TaskResult } from '../llm/tasks.js';
import { MAX_PREDICTION_CHARS } from './predictions.js';

/** One line of a prediction file: the item id and the predicted text. */
export interface PredictionLine {
  id: string;
  prediction: string;
}

/** A baseline's predictions, and the items it could not answer. */
export interface BaselinePredictions {
  predictions: PredictionLine[];
  /** Items whose call ended without a valid answer (invalid replies, a request the server refused as such). */
  failed: number;
  /** Items with no reference to read (an imported query, a page unknown on the date): not asked. */
  withoutReference: number;
}

/** How many items are asked at once; the provider's queue decides how many requests are in flight. */
const ITEMS_AT_ONCE = 64;

/** Asks `answer` for every item (null: the item has no reference, nothing is asked). */
export async function predictAll<T extends { id: string }>(
  items: readonly T[],
  answer: (item: T) => Promise<TaskResult<{ answer: string }>> | null,
): Promise<BaselinePredictions> {
  const predictions: PredictionLine[] = [];
  let failed = 0;
  let withoutReference = 0;
  for (let start = 0; start < items.length; start += ITEMS_AT_ONCE) {
    const batch = items.slice(start, start + ITEMS_AT_ONCE);
    const results = await Promise.all(batch.map((item) => answer(item)));
    batch.forEach((item, i) => {
      const result = results[i];
      // A reply past the cap `evaluate` reads (a server that ignores max_tokens) is no answer: written, it would make the whole file unreadable.
      const answer = result?.ok && result.value.answer.length <= MAX_PREDICTION_CHARS ? result.value.answer : undefined;
      if (result === null || result === undefined) withoutReference++;
      else if (answer === undefined) failed++;
      predictions.push({ id: item.id, prediction: answer ?? '' });
    });
  }
  return { predictions, failed, withoutReference };
}

/** The prediction file's content: one JSON object per line. */
export function predictionLines(predictions: readonly PredictionLine[]): string[] {
  return predictions.map((line) => `${JSON.stringify({ id: line.id, prediction: line.prediction })}\n`);
}
