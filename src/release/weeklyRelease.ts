/**
 * The files of a week's release (docs/ARCHITECTURE.md §8): the kept queries with their metadata, DailyQA's
 * per-date answer files for each day of the week, the native JSONL with full provenance of every
 * generated item (kept or not, and why), and a dataset card. Rendering only: the same store gives
 * byte-identical files (no wall-clock times in them).
 */
import type { Database } from 'better-sqlite3';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { addDays, formatDate } from '../dates.js';
import type { Window } from '../model.js';
import type { GeneratedItem, StoredCheck } from '../model/questions.js';
import { ChangeStore } from '../store/changeStore.js';
import { QuestionStore } from '../store/questionStore.js';
import { answersOnDate, type Answer, type TimeAxis } from '../timeline/answers.js';
import { dailyQaFileName } from '../timeline/dailyqaExport.js';
import { cardFrontMatter, wikiLanguage } from './datasetCard.js';

const TitlesJson = z.array(z.string());

export interface ReleaseCounts {
  data_units: number;
  generated: number;
  generation_failed: number;
  correct: number;
  descriptive: number;
  capped: number;
  kept: number;
}

/** The release's files by name, and the counts its card reports. */
export function renderWeeklyRelease(db: Database, wiki: string, window: Window, axis: TimeAxis = 'edit'): { files: Map<string, string>; counts: ReleaseCounts } {
  const questions = new QuestionStore(db, wiki);
  const items = questions.generatedItems(window);
  const checks = checksByQuery(questions.checksIn(window));
  // The week's days and the day after it, DailyQA's evaluation date (docs/ARCHITECTURE.md §2).
  const dates = [...daysOf(window), window.end.slice(0, 10)];
  const kept = items.filter((item) => item.kept);

  const files = new Map<string, string>();
  // Each day's answers are read once: DailyQA's file of the day, the kept items' native records and the gold's aliases.
  const answersByItem = new Map<string, Array<{ date: string } & Answer>>();
  const answerFiles = new Map<string, string>();
  for (const date of dates) {
    const answers = answersOnDate(db, date, { windowStart: window.start, axis });
    answerFiles.set(dailyQaFileName(date), jsonLines(answers.map(({ id, query, answer }) => ({ id, query, answer }))));
    for (const { id, query: _query, ...answer } of answers) answersByItem.set(id, [...(answersByItem.get(id) ?? []), { date, ...answer }]);
  }
  files.set('queries.jsonl', jsonLines(kept.map((item) => queryRecord(item, answersByItem.get(item.id) ?? []))));
  for (const [name, content] of answerFiles) files.set(name, content);
  files.set('native.jsonl', jsonLines(items.map((item) => nativeRecord(item, checks.get(item.id) ?? [], answersByItem.get(item.id) ?? []))));
  const counts: ReleaseCounts = {
    data_units: new ChangeStore(db, wiki).dataUnitCount(window),
    generated: items.filter((i) => i.status === 'ok').length,
    generation_failed: items.filter((i) => i.status === 'failed').length,
    correct: countPassed(checks, 'correctness'),
    descriptive: countPassed(checks, 'descriptiveness'),
    capped: items.filter((i) => i.capped).length,
    kept: kept.length,
  };
  files.set('README.md', datasetCard(window, wiki, dates, counts, items, axis));
  return { files, counts };
}

/** The gold's aliases: those of a day's answer that is the gold. */
function goldAliases(item: GeneratedItem, answers: ReadonlyArray<Answer>): string[] {
  return answers.find((answer) => answer.answer === item.gold)?.aliases ?? [];
}

function queryRecord(item: GeneratedItem, answers: ReadonlyArray<Answer>): Record<string, unknown> {
  return {
    id: item.id,
    query: item.text,
    answer: item.gold,
    aliases: goldAliases(item, answers),
    domain: item.domain,
    update_frequency: item.updateFrequency,
    title: item.title,
    url: item.url,
    wiki: item.wiki,
    page_id: item.pageId,
    template: item.template,
    key: item.key,
    key_label: item.keyLabels[item.key] ?? null,
    first_paragraph: item.firstParagraph,
    infobox: item.infobox,
    window_start: item.windowStart,
    window_end: item.windowEnd,
    changed_at: item.timestamp,
  };
}

function nativeRecord(item: GeneratedItem, checks: StoredCheck[], answers: Array<{ date: string } & Answer>): Record<string, unknown> {
  return {
    id: item.id,
    query: item.text,
    kept: item.kept,
    generation: { status: item.status, reason: item.reason },
    gold: item.gold,
    aliases: goldAliases(item, answers),
    source: {
      wiki: item.wiki,
      page_id: item.pageId,
      title: item.title,
      url: item.url,
      rev_id: item.revId,
      prev_rev_id: item.prevRevId,
      timestamp: item.timestamp,
      template: item.template,
      key: item.key,
      key_label: item.keyLabels[item.key] ?? null,
      old: item.old,
      new: item.gold,
      first_paragraph: item.firstParagraph,
      infobox: item.infobox,
    },
    provenance: { prompt: item.prompt, prompt_version: item.promptVersion, provider: item.provider, model: item.model, seed: item.seed },
    checks: checks.map((c) => ({
      check: c.check,
      passed: c.passed,
      reason: c.reason,
      detail: c.check === 'descriptiveness' && c.detail !== null ? TitlesJson.parse(JSON.parse(c.detail)) : c.detail,
      backend: c.backend,
      prompt: c.prompt === null ? null : { name: c.prompt, version: c.promptVersion },
    })),
    domain:
      item.domain === null
        ? null
        : {
            name: item.domain,
            provider: item.domainProvider,
            model: item.domainModel,
            prompt: { name: item.domainPrompt, version: item.domainPromptVersion },
            capped: item.capped,
            reason: item.domainReason,
          },
    update_frequency: item.updateFrequency,
    answers,
  };
}

function datasetCard(window: Window, wiki: string, dates: string[], counts: ReleaseCounts, items: GeneratedItem[], axis: TimeAxis): string {
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  const makers = [...new Set(items.map((i) => `${i.provider}:${i.model}`))].sort();
  const domainMakers = [...new Set(items.flatMap((i) => (i.domainProvider ? [`${i.domainProvider}:${i.domainModel}`] : [])))].sort();
  const prompts = [...new Set(items.map((i) => `${i.prompt}@${i.promptVersion}`))].sort();
  const byDomain = new Map<string, number>();
  for (const item of items) if (item.kept && item.domain) byDomain.set(item.domain, (byDomain.get(item.domain) ?? 0) + 1);
  const offline = makers.some((m) => m.startsWith('offline:'));
  const frontMatter = cardFrontMatter({
    prettyName: `wikidelta weekly release ${first}`,
    language: [wikiLanguage(wiki)],
    taskCategories: ['question-answering'],
    taskIds: ['open-domain-qa'],
    configs: [
      { name: 'queries', default: true, files: [{ split: 'test', path: 'queries.jsonl' }] },
      { name: 'answers', files: dates.map((d) => ({ split: dailyQaFileName(d).replace('.jsonl', ''), path: dailyQaFileName(d) })) },
    ],
  });
  return `${frontMatter}# wikidelta weekly release ${first}

Time-sensitive questions made from the Wikipedia infobox values that changed in the week
${window.start} .. ${window.end} (UTC, end excluded), in DailyQA's format, with the answer on every
day of the week and on the day after it, ${first} .. ${last} (DailyQA's evaluation date: the
revisions up to and including ${window.end} are collected, so that day is answered).

## Files

| file | content |
|---|---|
| \`queries.jsonl\` | the kept queries with their metadata: id, query, answer when made, domain, update frequency, title, URL, template, key, first paragraph, infobox |
${dates.map((d) => `| \`qa_${d.slice(2).replace(/-/g, '')}.jsonl\` | \`{id, query, answer}\` per kept query: ${axis === 'world' ? 'what held in the world' : 'the value in effect'} on ${d} 00:00 UTC (null: no value then) |`).join('\n')}
| \`native.jsonl\` | every generated item, kept or not: source revision, provenance (prompt and version, provider, model, seed), check results with reasons, domain, answers with revision, validity interval and aliases (other names of the answer: link targets, a named entity's aliases) |
${axis === 'world' ? `
The answers are on **world time**: what held in the world on each day by the time-qualified statements
(start P580, end P582, point in time P585) of each entity's latest known revision, not what the page said
that day; a fact without dates has no world-time answer (null).
` : ''}

## Counts

| | count |
|---|---|
| data units (selected infobox changes) | ${counts.data_units} |
| questions generated | ${counts.generated} |
| generation failed | ${counts.generation_failed} |
| passed correctness (subset match) | ${counts.correct} |
| passed descriptiveness (source page in the top 10) | ${counts.descriptive} |
| left out by the domain cap | ${counts.capped} |
| **kept** | **${counts.kept}** |

| domain | kept |
|---|---|
${[...byDomain].sort(([a], [b]) => a.localeCompare(b)).map(([d, n]) => `| ${d} | ${n} |`).join('\n') || '| (none) | 0 |'}

## How it was made

- questions: ${makers.join(', ') || 'none'} (prompts: ${prompts.join(', ') || 'none'})
- domains: ${domainMakers.join(', ') || 'none'}
${offline ? '- provider `offline` means the deterministic template rules of wikidelta, not a language model.\n' : ''}
## Licence

The text of this release is derived from Wikipedia (infobox values, titles, first paragraphs) and is
available under the Creative Commons Attribution-ShareAlike licence (CC BY-SA 4.0); the authors
are the contributors named in each page's history, linked from the URLs in the files.
`;
}

function checksByQuery(rows: StoredCheck[]): Map<string, StoredCheck[]> {
  const byQuery = new Map<string, StoredCheck[]>();
  for (const row of rows) byQuery.set(row.queryId, [...(byQuery.get(row.queryId) ?? []), row]);
  return byQuery;
}

function countPassed(checks: Map<string, StoredCheck[]>, name: string): number {
  return [...checks.values()].flat().filter((c) => c.check === name && c.passed).length;
}

/** Every day of the window, as YYYY-MM-DD. */
export function daysOf(window: Window): string[] {
  const days: string[] = [];
  for (let day = new Date(window.start); day.getTime() < Date.parse(window.end); day = addDays(day, 1)) days.push(formatDate(day));
  return days;
}

function jsonLines(records: unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** `releases/weekly-YYYY-MM-DD/` beside the database: data/releases/… for the default data/wikidelta.sqlite. */
export function defaultReleaseDir(databasePath: string, windowStart: string): string {
  const base = databasePath === ':memory:' ? process.cwd() : dirname(resolve(databasePath));
  return join(base, 'releases', `weekly-${windowStart.slice(0, 10)}`);
}
