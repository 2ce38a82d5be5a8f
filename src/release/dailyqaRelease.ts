/**
 * A DailyQA release over a range of days (docs/ARCHITECTURE.md §8): every kept query's answer on
 * every day as one table, the form DailyQA's per-day files take together, and the queries as a
 * second table, each as JSON lines and Parquet, with a dataset card. The answers are read in one
 * pass over the stored intervals (`answersOverDays`), not a statement per day. Rendering only: the
 * same store gives byte-identical files.
 */
import { addDays, formatDate, parseDate } from '../dates.js';
import { UserError } from '../errors.js';
import { answersOverDays } from '../timeline/answers.js';
import { unknownAnswersReason } from '../timeline/unknownAnswers.js';
import { ANSWERS_TABLE, answerRecord } from './answerTable.js';
import { cardFrontMatter, factSource, licenceSection, loadingSection, type FactSource } from './datasetCard.js';
import { cardConfigs, tableFileList, tableFiles, type ReleaseTable } from './formats/index.js';
import type { TableRecord, TableSpec } from './parquetTable.js';
import type { ReleaseDraft } from './writeRelease.js';
import type { Store } from '../store/store.js';

/** Longer ranges are refused: a range is one table held in memory while written (about 200 bytes a row). */
const MAX_DAYS = 3660;

const QUERIES_TABLE: TableSpec = {
  name: 'queries',
  columns: [
    { name: 'id', type: 'string' },
    { name: 'query', type: 'string' },
    { name: 'week', type: 'date', nullable: true, repeats: true },
    { name: 'origin', type: 'string', repeats: true },
    { name: 'wiki', type: 'string', nullable: true, repeats: true },
    { name: 'page_id', type: 'int64', nullable: true },
    { name: 'title', type: 'string', nullable: true },
    { name: 'url', type: 'string', nullable: true },
    { name: 'key', type: 'string', nullable: true, repeats: true },
    { name: 'domain', type: 'string', nullable: true, repeats: true },
    { name: 'update_frequency', type: 'string', repeats: true },
    { name: 'changed_at', type: 'timestamp', nullable: true },
  ],
};

export interface DailyQaCounts {
  queries: number;
  days: number;
  answers: number;
  /** Rows whose answer the store does not know (status unknown: the histories it holds end before the day). */
  unknown: number;
}

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const last = parseDate(to, '--to date');
  const days: string[] = [];
  for (let day = parseDate(from, '--from date'); day <= last; day = addDays(day, 1)) {
    days.push(formatDate(day));
    if (days.length > MAX_DAYS) throw new UserError('E_DATE_RANGE_INVALID', `the range ${from} .. ${to} is longer than ${MAX_DAYS} days: release it in parts`);
  }
  if (days.length === 0) throw new UserError('E_DATE_RANGE_INVALID', `--from ${from} is after --to ${to}`);
  return days;
}

/**
 * The DailyQA release of every kept query on each day from `from` to `to` (one answer table, one file a day, the card),
 * with why some answers are unknown when some are.
 *
 * @throws UserError when the store holds no kept query, or knows none of their answers on any day of the range
 */
export async function renderDailyQaRelease(store: Store, from: string, to: string): Promise<{ draft: ReleaseDraft; counts: DailyQaCounts; unknownReason?: string }> {
  const dates = daysFrom(from, to);
  const queries = store.queries.keptQueries();
  if (queries.length === 0) throw new UserError('E_PREREQUISITE_MISSING', 'no kept queries in the store: run wikidelta weekly or wikidelta import dailyqa first');
  const answers: TableRecord[] = [];
  for (const query of answersOverDays(store, dates)) {
    query.answers.forEach((answer, index) => answers.push(answerRecord(query.id, dates[index] as string, answer)));
  }
  const queryRows: TableRecord[] = queries.map((query) => ({
    id: query.id,
    query: query.query,
    week: query.week,
    origin: query.origin,
    wiki: query.wiki,
    page_id: query.pageId,
    title: query.title,
    url: query.url,
    key: query.key,
    domain: query.domain,
    update_frequency: query.updateFrequency,
    changed_at: query.changedAt,
  }));
  const unknownAnswers = answers.filter((answer) => answer.status === 'unknown');
  const unknown = unknownAnswers.length;
  const unknownDays = [...new Set(unknownAnswers.map((answer) => String(answer.date)))].sort();
  // Said of the days some answer is unknown only: the range's first days may be known (a page not yet created).
  const unknownReason = unknown > 0 ? unknownAnswersReason(store, unknownDays) : undefined;
  // As for one day: a release in which no answer is known is no dataset, whatever the range.
  if (unknown > 0 && unknown === answers.length) {
    throw new UserError('E_ANSWERS_UNKNOWN', `the store does not know the answer of any of the ${queries.length} kept queries on any day from ${from} to ${to}: ${unknownReason}`);
  }
  const counts = { queries: queries.length, days: dates.length, answers: answers.length, unknown };
  const tables = { answers: { spec: ANSWERS_TABLE, records: answers }, queries: { spec: QUERIES_TABLE, records: queryRows } };
  const files = await tableFiles([tables.answers, tables.queries]);
  files.set('README.md', datasetCard(from, to, counts, queries.filter((query) => query.origin === 'imported').length, factSource(queries.map((query) => query.template)), tables));
  return {
    draft: { kind: 'dailyqa', series: 'dailyqa', date: to, command: `wikidelta export dailyqa --from ${from} --to ${to}`, parameters: { from, to }, files },
    counts,
    ...(unknownReason === undefined ? {} : { unknownReason }),
  };
}

function datasetCard(from: string, to: string, counts: DailyQaCounts, imported: number, source: FactSource, tables: Record<'answers' | 'queries', ReleaseTable>): string {
  const frontMatter = cardFrontMatter({
    prettyName: `wikidelta DailyQA release ${from} .. ${to}`,
    license: source,
    language: ['en'],
    taskCategories: ['question-answering'],
    taskIds: ['open-domain-qa'],
    configs: cardConfigs([tables.answers, tables.queries]),
  });
  return `${frontMatter}# wikidelta DailyQA release ${from} .. ${to}

Every kept query's answer on every day from ${from} to ${to} (UTC): the value in effect at 00:00 of
the day, as DailyQA's per-day files give it, here as one table of ${counts.answers} rows
(${counts.queries} queries × ${counts.days} days). ${imported > 0 ? `${imported} of the queries were imported from published DailyQA files; their answers are those files' answers, over the days they cover.` : ''}

## Files

| file | content |
|---|---|
| ${tableFileList([tables.answers])} | one row per query and day, by id then date: \`id\`, \`date\`, \`answer\` (null: no value then), \`status\` (ok; no_key: no such value, or a published null; no_page; deleted; unknown: outside the history held), \`valid_from\` and \`valid_to\` (the interval the answer held over, UTC; valid_to null: still in effect), \`aliases\` (other names of the answer the store holds: link targets, a named entity's aliases; imported DailyQA answers have none) |
| ${tableFileList([tables.queries])} | one row per query: \`id\`, \`query\`, \`week\` (the week it was made), \`origin\` (generated or imported), and for generated queries the wiki, page id, title, URL, infobox key, domain and the time of the change it was made from; \`update_frequency\` |

Parquet columns are typed (dates as dates, times as UTC timestamps, aliases as a list of strings),
in row groups of at most 65,536 rows; the card's \`dataset_info\` declares the same types. A day's
DailyQA file is \`SELECT id, query, answer FROM answers JOIN queries USING (id) WHERE date = DAY AND status <> 'unknown'\`
(an unknown answer is left out, since DailyQA's null means no value).

${loadingSection('answers', 'answers')}
${licenceSection(source)}`;
}
