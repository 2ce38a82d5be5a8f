/**
 * timeline_request_ratio: API requests needed to answer N tracked pages on each of 29 days, through
 * timelines against the published DailyQA method, both counted at a proxy in front of one real
 * MediaWiki on loopback that imported the embedded sample history.
 *
 * Timelines: the real command collects a week (`weekly`, its answering stages: the question stages'
 * searches make questions, not answers) and extends its tracked pages' timelines to the 29th day
 * (`sync`); every request the server received counts. Published method: for every
 * (tracked page, day), one request finding the page's revision as of that day and one downloading
 * its text, sent through the same polite client so both methods pay the same per-request costs.
 */
import Sqlite from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { addDays, formatDate, parseDate } from '../../src/dates.js';
import { WikiClient } from '../../src/sources/wikiClient.js';
import { repoRoot, runCli, tempDir } from '../../testkit/cli.js';
import { startFaultProxy, type FaultProxy } from '../../testkit/faultProxy.js';
import { startMediaWiki } from '../../testkit/mediawiki.js';
import { report } from './report.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const USER_AGENT = 'wikidelta-bench/0.1 (https://example.org/wikidelta; wikidelta-bench@example.org)';
const ENV = { WIKIDELTA_USER_AGENT: USER_AGENT, WIKIDELTA_WIKI: 'benchwiki' };
const WEEK_START = '2025-02-03';
const DAYS = 29;

interface TrackedPage {
  pageId: number;
  title: string;
}

const HistoryReply = z.object({
  query: z
    .object({ pages: z.array(z.object({ revisions: z.array(z.object({ revid: z.number().int() })).optional() })) })
    .optional(),
});

const ContentReply = z.object({
  query: z
    .object({
      pages: z.array(
        z.object({
          revisions: z
            .array(z.object({ slots: z.object({ main: z.object({ content: z.string().optional() }) }).optional() }))
            .optional(),
        }),
      ),
    })
    .optional(),
});

async function cli(args: string[]): Promise<void> {
  const result = await runCli(args, { env: ENV });
  if (result.code !== 0) throw new Error(`wikidelta ${args.join(' ')} failed: ${result.stderr.trim()}`);
}

/** Requests of `weekly` over the first week then `sync` to the last day, by kind. */
async function timelineRequests(proxy: FaultProxy, db: string, days: string[]): Promise<Record<string, number>> {
  const api = `${proxy.baseUrl}/api.php`;
  const until = formatDate(addDays(parseDate(days.at(-1) ?? WEEK_START), 1));
  proxy.resetCounts();
  // Only what answering needs: the question stages' descriptiveness searches make questions, not answers.
  await cli(['--db', db, 'weekly', '--start', WEEK_START, '--api', api, '--stages', 'collect,parse,diff,select,timeline']);
  await cli(['--db', db, 'sync', '--until', until, '--api', api]);
  return proxy.counts().byKind;
}

function trackedPages(db: string): TrackedPage[] {
  const store = new Sqlite(db, { readonly: true });
  try {
    return store
      .prepare('SELECT page_id AS pageId, title FROM pages WHERE page_id IN (SELECT DISTINCT page_id FROM data_units) ORDER BY page_id')
      .all() as TrackedPage[];
  } finally {
    store.close();
  }
}

/** The published method's two requests for one (page, day): the revision as of the day, then its text. */
async function answerAsPublished(client: WikiClient, title: string, day: string): Promise<void> {
  const history = await client.read(
    { action: 'query', prop: 'revisions', titles: title, rvlimit: 1, rvstart: `${day}T00:00:00Z`, rvdir: 'older', rvprop: 'ids' },
    HistoryReply,
  );
  const revId = history.query?.pages[0]?.revisions?.[0]?.revid;
  // A page that did not exist yet on that day has no revision to download.
  if (revId === undefined) return;
  await client.read({ action: 'query', prop: 'revisions', revids: revId, rvprop: 'content', rvslots: 'main' }, ContentReply);
}

async function publishedRequests(proxy: FaultProxy, pages: TrackedPage[], days: string[]): Promise<number> {
  const client = new WikiClient({ apiUrl: `${proxy.baseUrl}/api.php`, userAgent: USER_AGENT });
  proxy.resetCounts();
  await Promise.all(pages.flatMap((page) => days.map((day) => answerAsPublished(client, page.title, day))));
  return proxy.counts().total;
}

const days = Array.from({ length: DAYS }, (_, offset) => formatDate(addDays(parseDate(WEEK_START), offset)));
const dir = tempDir('wikidelta-bench-');
const wiki = await startMediaWiki({ dumps: [SAMPLE] });
const proxy = await startFaultProxy(wiki.baseUrl);
try {
  const db = join(dir, 'timelines.sqlite');
  const byKind = await timelineRequests(proxy, db, days);
  const timeline = Object.values(byKind).reduce((sum, count) => sum + count, 0);
  const pages = trackedPages(db);
  const published = await publishedRequests(proxy, pages, days);
  report('timeline_request_ratio', published / timeline, 'x', {
    pages: pages.length,
    days: DAYS,
    timeline_requests: timeline,
    published_requests: published,
    timeline_by_kind: byKind,
  });
} finally {
  await proxy.close();
  await wiki.stop();
  rmSync(dir, { recursive: true, force: true });
}
