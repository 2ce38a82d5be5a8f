/**
 * The files of a week's release (docs/ARCHITECTURE.md §8): the kept queries with their metadata and
 * the answers of every day as tables (JSON lines and Parquet), DailyQA's per-date answer files for
 * each day of the week, the native JSONL with full provenance of every generated item (kept or not,
 * and why), and a dataset card. Rendering only: the same store gives byte-identical files (no
 * wall-clock times in them).
 */
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { addDays, formatDate } from '../dates.js';
import type { Window } from '../model.js';
import type { GeneratedItem, StoredCheck } from '../model/questions.js';
import type { TimeAxis } from '../model/timelines.js';
import { answerSubject, answersOverDays, type Answer } from '../timeline/answers.js';
import { dailyQaFileName } from '../timeline/dailyqaExport.js';
import { updateFrequencyDates, updateFrequencyOf } from '../timeline/updateFrequency.js';
import { ANSWERS_TABLE, answerRecord } from './answerTable.js';
import { cardFrontMatter, factsMadeFrom, factSource, licenceSection, loadingSection, wikiLanguage } from './datasetCard.js';
import { cardConfigs, tableFileList, tableFiles, type ReleaseTable } from './formats/index.js';
import type { TableRecord, TableSpec } from './parquetTable.js';
import { releaseHeldIn, type ReleaseDraft } from './writeRelease.js';
import type { Store } from '../store/store.js';

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

/** The kept queries with their metadata; the infobox is an object in JSON lines, JSON text in Parquet. */
const QUERIES_TABLE: TableSpec = {
  name: 'queries',
  columns: [
    { name: 'id', type: 'string' },
    { name: 'query', type: 'string' },
    { name: 'answer', type: 'string' },
    { name: 'aliases', type: 'strings', statistics: false },
    { name: 'domain', type: 'string', nullable: true, repeats: true },
    { name: 'update_frequency', type: 'string', nullable: true, repeats: true },
    { name: 'title', type: 'string' },
    { name: 'url', type: 'string' },
    { name: 'wiki', type: 'string', repeats: true },
    { name: 'page_id', type: 'int64' },
    { name: 'template', type: 'string', repeats: true },
    { name: 'key', type: 'string', repeats: true },
    { name: 'key_label', type: 'string', nullable: true, repeats: true },
    { name: 'first_paragraph', type: 'string' },
    { name: 'infobox', type: 'json' },
    { name: 'window_start', type: 'timestamp', repeats: true },
    { name: 'window_end', type: 'timestamp', repeats: true },
    { name: 'changed_at', type: 'timestamp' },
  ],
};

/**
 * The release's files by name, what its manifest says of them, and the counts its card reports; on
 * world time (`axis`), the answers are what held in the world (docs/ARCHITECTURE.md §16).
 */
export async function renderWeeklyRelease(store: Store, wiki: string, window: Window, axis: TimeAxis = 'edit'): Promise<{ draft: ReleaseDraft; counts: ReleaseCounts }> {
  const questions = store.questions(wiki);
  const items = questions.generatedItems(window);
  const checks = checksByQuery(questions.checksIn(window));
  // The week's days and the day after it, DailyQA's evaluation date (docs/ARCHITECTURE.md §2).
  const dates = [...daysOf(window), window.end.slice(0, 10)];
  const kept = items.filter((item) => item.kept);

  // The days' answers in one pass over the intervals: DailyQA's file of each day, and the kept items'
  // native records; on world time the same pass reads days 8 to 21 for the update frequencies.
  const frequencyDates = axis === 'world' ? updateFrequencyDates(window.start) : [];
  const read = [...new Set([...dates, ...frequencyDates])].sort();
  const releaseDays = dates.map((date) => read.indexOf(date));
  const frequencyDays = frequencyDates.map((date) => read.indexOf(date));
  const answersByItem = new Map<string, Array<{ date: string } & Answer>>();
  const dayLines = dates.map((): Array<{ id: string; query: string; answer: string | null }> => []);
  // The store keeps the edit-time class; on world time the same rule on what held in the world, null
  // where nothing did on those days (a fact without dates).
  const worldFrequency = new Map<string, string | null>();
  for (const { id, query, answers } of answersOverDays(store, read, { windowStart: window.start, axis })) {
    const days = releaseDays.map((day) => answers[day] as Answer);
    answersByItem.set(id, days.map((answer, day) => ({ date: dates[day] as string, ...answer })));
    // DailyQA's null says there is no value, which an unknown answer (a fact without dates, on world
    // time) is not: such a query is left out of that day's file, as `export dailyqa` leaves it out.
    days.forEach((answer, day) => {
      if (answer.status !== 'unknown') dayLines[day]?.push({ id, query, answer: answer.answer });
    });
    if (axis === 'world') {
      const frequency = updateFrequencyOf(frequencyDays.map((day) => answers[day] as Answer));
      worldFrequency.set(id, frequency === 'pending' ? null : frequency);
    }
  }
  // The gold's aliases: those of the interval the change began, on edit time whatever the release's axis.
  const aliasesOf = new Map(items.map((item) => [item.id, answerSubject(store, { wiki: item.wiki, pageId: item.pageId, key: item.key, template: item.template }, item.timestamp).aliases]));
  const frequencyOf = (item: GeneratedItem): string | null => (axis === 'world' ? (worldFrequency.get(item.id) ?? null) : item.updateFrequency);
  const queries: ReleaseTable = { spec: QUERIES_TABLE, records: kept.map((item) => queryRecord(item, aliasesOf.get(item.id) ?? [], frequencyOf(item))) };
  const answerRows = [...answersByItem.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap((id) => (answersByItem.get(id) ?? []).map(({ date, ...answer }) => answerRecord(id, date, answer)));
  const answerTable: ReleaseTable = { spec: ANSWERS_TABLE, records: answerRows };
  const files = await tableFiles([queries, answerTable]);
  dates.forEach((date, day) => files.set(dailyQaFileName(date), jsonLines(dayLines[day] ?? [])));
  files.set('native.jsonl', jsonLines(items.map((item) => nativeRecord(item, checks.get(item.id) ?? [], answersByItem.get(item.id) ?? [], aliasesOf.get(item.id) ?? [], frequencyOf(item)))));
  const counts: ReleaseCounts = {
    data_units: store.changes(wiki).dataUnitCount(window),
    generated: items.filter((i) => i.status === 'ok').length,
    generation_failed: items.filter((i) => i.status === 'failed').length,
    correct: countPassed(checks, 'correctness'),
    descriptive: countPassed(checks, 'descriptiveness'),
    capped: items.filter((i) => i.capped).length,
    kept: kept.length,
  };
  files.set('README.md', datasetCard(window, wiki, dates, counts, items, { queries, answers: answerTable }, axis));
  const start = window.start.slice(0, 10);
  const days = Math.round((Date.parse(window.end) - Date.parse(window.start)) / 86_400_000);
  const world = axis === 'world';
  return {
    draft: {
      kind: 'weekly',
      series: weeklySeries(wiki, axis),
      date: start,
      command: `wikidelta export weekly --start ${start} --days ${days} --wiki ${wiki}${world ? ' --time world' : ''}`,
      parameters: { start, days, wiki, ...(world ? { time: axis } : {}) },
      files,
    },
    counts,
  };
}

function queryRecord(item: GeneratedItem, aliases: readonly string[], updateFrequency: string | null): TableRecord & { infobox: Record<string, string> } {
  return {
    id: item.id,
    query: item.text,
    answer: item.gold,
    aliases,
    domain: item.domain,
    update_frequency: updateFrequency,
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

function nativeRecord(item: GeneratedItem, checks: StoredCheck[], answers: Array<{ date: string } & Answer>, aliases: readonly string[], updateFrequency: string | null): Record<string, unknown> {
  return {
    id: item.id,
    query: item.text,
    kept: item.kept,
    generation: { status: item.status, reason: item.reason },
    gold: item.gold,
    aliases,
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
    update_frequency: updateFrequency,
    answers,
  };
}

function datasetCard(window: Window, wiki: string, dates: string[], counts: ReleaseCounts, items: GeneratedItem[], tables: Record<'queries' | 'answers', ReleaseTable>, axis: TimeAxis): string {
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  const makers = [...new Set(items.map((i) => `${i.provider}:${i.model}`))].sort();
  const domainMakers = [...new Set(items.flatMap((i) => (i.domainProvider ? [`${i.domainProvider}:${i.domainModel}`] : [])))].sort();
  const prompts = [...new Set(items.map((i) => `${i.prompt}@${i.promptVersion}`))].sort();
  const byDomain = new Map<string, number>();
  for (const item of items) if (item.kept && item.domain) byDomain.set(item.domain, (byDomain.get(item.domain) ?? 0) + 1);
  const offline = makers.some((m) => m.startsWith('offline:'));
  const source = factSource(items.map((item) => item.template));
  const frontMatter = cardFrontMatter({
    prettyName: `wikidelta weekly release ${first}`,
    license: source,
    language: [wikiLanguage(wiki)],
    taskCategories: ['question-answering'],
    taskIds: ['open-domain-qa'],
    configs: cardConfigs([tables.queries, tables.answers]),
  });
  return `${frontMatter}# wikidelta weekly release ${first}

Time-sensitive questions made from ${factsMadeFrom(source)} that changed in the week
${window.start} .. ${window.end} (UTC, end excluded), in DailyQA's format, with the answer on every
day of the week and on the day after it, ${first} .. ${last} (DailyQA's evaluation date: the
revisions up to and including ${window.end} are collected, so that day is answered).

## Files

| file | content |
|---|---|
| ${tableFileList([tables.queries])} | the kept queries with their metadata: id, query, answer when made, its aliases (other names: link targets, a named entity's aliases), domain, update frequency, title, URL, wiki, page id, template, key, the key's label (a Wikidata property's name), first paragraph, infobox (an object in JSON lines, JSON text in Parquet), window, time of the change |
| ${tableFileList([tables.answers])} | one row per kept query and day, ${first} .. ${last}: \`id\`, \`date\`, \`answer\` (null: no value then), \`status\` (ok, no_key, no_page, deleted, unknown), \`valid_from\` and \`valid_to\` (the interval the value held over, UTC; valid_to null: still in effect), \`aliases\` (other names of the answer: link targets, a named entity's aliases) |
${dates.map((d) => `| \`qa_${d.slice(2).replace(/-/g, '')}.jsonl\` | \`{id, query, answer}\` per kept query: ${axis === 'world' ? 'what held in the world' : 'the value in effect'} on ${d} 00:00 UTC (null: no value then; a query whose answer is unknown that day is left out) |`).join('\n')}
| \`native.jsonl\` | every generated item, kept or not: source revision, provenance (prompt and version, provider, model, seed), check results with reasons, domain, answers with revision, validity interval and aliases |
${axis === 'world' ? `
The answers are on **world time**: what held in the world on each day by the time-qualified statements
(start P580, end P582, point in time P585) of each entity's latest known revision, not what the page said
that day; a fact without dates has no world-time answer (status unknown in the answers table, left out of the day files). The update frequency is DailyQA's rule
on the world-time answers of days 8 to 21 from the week's start (null for a fact without dates); a
query's \`answer\`, its aliases and \`changed_at\` are those of the edit it was made from.
` : ''}

Parquet columns are typed (dates as dates, times as UTC timestamps, aliases as a list of strings),
in row groups of at most 65,536 rows; the card's \`dataset_info\` declares the same types.

${loadingSection('answers', 'answers')}

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
${licenceSection(source)}`;
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

/** The series a week's releases of one wiki and time axis make: a release follows the one before it in its series. */
function weeklySeries(wiki: string, axis: TimeAxis): string {
  return `weekly ${wiki}${axis === 'world' ? ' world time' : ''}`;
}

/**
 * `releases/weekly-YYYY-MM-DD/` beside the database (data/releases/… for the default
 * data/wikidelta.sqlite; `-world` on world time). Given the wiki: when that folder holds the week's
 * release of another wiki (two wikis' weeks in one store), `…-WIKI`, so neither replaces the other.
 */
export function defaultReleaseDir(databasePath: string, windowStart: string, wiki?: string, axis: TimeAxis = 'edit'): string {
  const base = databasePath === ':memory:' ? process.cwd() : dirname(resolve(databasePath));
  const dir = join(base, 'releases', `weekly-${windowStart.slice(0, 10)}${axis === 'world' ? '-world' : ''}`);
  if (wiki === undefined) return dir;
  const held = releaseHeldIn(dir);
  return held === undefined || held.series === weeklySeries(wiki, axis) ? dir : `${dir}-${wiki}`;
}
