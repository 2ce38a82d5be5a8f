/** What the weekly LLM stages share: the tasks (the offline rules unless others are given), the article a data unit shows, batches. */
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
