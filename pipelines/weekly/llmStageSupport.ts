/** What the LLM stages share: the assistant and search defaults, the article a data unit shows, usage records. */
import type { ArticleContext, Assistant } from '../../src/llm/assistant.js';
import { OfflineAssistant } from '../../src/llm/offlineAssistant.js';
import { recordUsage } from '../../src/llm/usage.js';
import type { StageContext } from '../../src/runs/stageRunner.js';
import type { DataUnit } from '../../src/model/weekly.js';
import type { WeeklyInput } from '../weekly.js';

/** Items sent to the assistant at once; its own queue decides how many are in flight. */
export const LLM_BATCH = 64;

export function assistantFor(input: WeeklyInput): Assistant {
  return input.assistant ?? new OfflineAssistant();
}

export function articleOf(unit: DataUnit): ArticleContext {
  return { title: unit.title, url: unit.url, template: unit.template, infobox: unit.infobox, firstParagraph: unit.firstParagraph };
}

/** Runs a stage body and adds whatever the assistant spent to the run's usage, also when the body fails. */
export async function withUsage<T>(input: Pick<WeeklyInput, 'prices'>, assistant: Assistant, context: StageContext, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    recordUsage(context.db, context.runId, assistant.takeUsage(), input.prices ?? {});
  }
}

export function* batches<T>(items: readonly T[], size: number): Iterable<T[]> {
  for (let at = 0; at < items.length; at += size) yield items.slice(at, at + size);
}
