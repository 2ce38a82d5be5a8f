/**
 * What the weekly LLM stages share: the tasks (the offline rules unless others are given), the
 * article a data unit shows, batches, and how a batch meets a failure of the service: a task that
 * throws (the LLM server down, refusing or timing out past its retries) is not a verdict on its
 * item, so the stage keeps what the batch's other items gave and then fails, and the next run asks
 * again (docs/ARCHITECTURE.md §6).
 */
import type { DataUnit } from '../../src/model/weekly.js';
import { OfflineWeeklyTasks } from '../../src/llm/offlineWeeklyTasks.js';
import type { ArticleContext, WeeklyTasks } from '../../src/llm/weeklyTasks.js';
import type { WeeklyInput } from './input.js';

/** Items sent to the tasks at once; the provider's own queue decides how many are in flight. */
export const LLM_BATCH = 64;

export function tasksFor(input: WeeklyInput): WeeklyTasks {
  return input.tasks ?? new OfflineWeeklyTasks();
}

export function articleOf(unit: DataUnit): ArticleContext {
  return { title: unit.title, url: unit.url, template: unit.template, infobox: unit.infobox, keyLabels: unit.keyLabels, firstParagraph: unit.firstParagraph };
}

export function* batches<T>(items: readonly T[], size: number): Iterable<T[]> {
  for (let at = 0; at < items.length; at += size) yield items.slice(at, at + size);
}

/** The results of the items whose work ended, in order, and the first failure thrown, once every item's work has ended. */
export async function settled<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<{ results: R[]; failure: { error: unknown } | null }> {
  const outcomes = await Promise.allSettled(items.map(work));
  const rejected = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  const results = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  return { results, failure: rejected ? { error: rejected.reason } : null };
}

/**
 * Whether a stored reason is a failure of the service rather than a verdict on the item. Versions
 * before the outage fix stored such failures as the item's ("LLM server URL failed after 5 retries:
 * HTTP 500"), which made an outage's week empty for good; those items are asked again. A 400, 413
 * or 422 refused the item's own request and stays its verdict.
 */
export function failedForTheService(reason: string | null): boolean {
  return reason !== null && /^(?:no answer: )?LLM server \S+ failed(?: after \d+ retr(?:y|ies))?: (?!HTTP 4(?:00|13|22)\b)/.test(reason);
}
