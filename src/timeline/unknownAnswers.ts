import type { TimeAxis } from '../model/timelines.js';
import type { Store } from '../store/store.js';
import { addDays, formatDate, parseDate } from '../dates.js';
import { answerInstant } from './answers.js';

/**
 * Why the store does not know kept queries' answers (of one week, or all) on some of the days, and
 * what would make them known, from where it holds their histories: a sync extends a
 * page's history forward only, and only as far as its source holds (a dump ends at its newest
 * revision, docs/ARCHITECTURE.md §5), so the line names where the histories held end; an imported
 * query is known on the days of the published files imported, and on no other. On world time
 * an answer is unknown only for a fact without time qualifiers, whatever the store holds.
 *
 * @param days - YYYY-MM-DD, ascending: the day, or the days of a range, asked for
 * @param options - `windowStart`: only the queries of the week starting then; `queryId`: that query alone, kept or not; `axis`: the time axis asked on (edit time by default)
 * @throws Error for no day at all: a caller's bug
 * @example unknownAnswersReason(store, ['2025-09-01']) // 'their pages\' histories held end at 2025-03-27T17:40:00Z: sync --until 2025-09-01 …'
 */
export function unknownAnswersReason(store: Store, days: readonly string[], options: { windowStart?: string; queryId?: string; axis?: TimeAxis } = {}): string {
  const [first, last] = [days[0], days.at(-1)];
  if (first === undefined || last === undefined) throw new Error('unknownAnswersReason: no day asked for');
  // Said of one query (`answer --query`) or of the kept queries.
  const held =
    options.queryId === undefined
      ? { history: "their pages' histories", end: 'end', begin: 'begin', them: 'them', facts: 'their facts have' }
      : { history: "its page's history", end: 'ends', begin: 'begins', them: 'it', facts: 'its fact has' };
  if (options.axis === 'world') {
    return `${held.facts} no start, end or point-in-time qualifier (P580, P582, P585) to answer from on world time (--time edit reads what the page said)`;
  }
  const { histories, imported } = store.answers.heldSpans(options);
  const [from, to] = [answerInstant(first), answerInstant(last)];
  const reasons: string[] = [];
  if (histories !== undefined) {
    if (to > histories.firstEnd) {
      const end = histories.firstEnd === histories.until ? `at ${histories.until}` : `from ${histories.firstEnd} to ${histories.until}`;
      reasons.push(`${held.history} held ${held.end} ${end}: sync --until ${last} from a source that holds that day (a newer dump, or the API) extends ${held.them}`);
    }
    if (from < histories.from) reasons.push(`${held.history} held ${held.begin} at ${histories.from}, and a sync extends ${held.them} forward only`);
    if (reasons.length === 0) reasons.push(`the store holds ${held.history} from ${histories.from} to ${histories.until} with gaps, between the weeks that collected ${held.them}: run sync --until ${last}`);
  }
  if (imported !== undefined) {
    const reach = `the published files imported hold the days from ${imported.from.slice(0, 10)} to ${formatDate(addDays(parseDate(imported.until.slice(0, 10)), -1))}`;
    reasons.push(to >= imported.until ? `${reach}: import the later qa_YYMMDD.jsonl files` : reach);
  }
  return reasons.length > 0 ? reasons.join('; ') : `the store holds none of ${held.history}: run wikidelta sync`;
}
