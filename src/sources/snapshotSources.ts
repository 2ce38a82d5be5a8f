/**
 * Where a snapshot's articles come from (docs/ARCHITECTURE.md §7.1): each main-namespace page's latest revision at
 * or before an instant, redirects skipped, from a streamed XML dump or through the Action API.
 */
import { isoSeconds, normaliseTimestamp } from '../dates.js';
import { openDumpInput } from './dumpInput.js';
import { readDump, type DumpPageHeader } from './dumpReader.js';
import { InfoReply, LinksReply, RevisionsReply } from './mediawikiReplies.js';
import { revisionsById } from './revisionContent.js';
import { IDS_PER_REQUEST, WikiClient, type WikiClientOptions } from './wikiClient.js';
import { isRedirectText } from '../text/articleText.js';

/** One article of a snapshot: the revision in effect at its instant, with its wikitext. */
export interface SnapshotArticle {
  pageId: number;
  title: string;
  revId: number;
  timestamp: string;
  wikitext: string;
  /** From a dump: sequences of this revision's page that were not UTF-8, each read as U+FFFD (absent: none, or not known). */
  invalidUtf8?: number;
}

/**
 * Streams a dump once, holding one page's best revision at a time: the text of a revision is
 * joined only while it is the latest one seen at or before `asOf` (null: the latest of all).
 *
 * @param path - a dump file (plain or compressed) or `-` for standard input
 * @param asOf - the snapshot's instant as an ISO timestamp, or null for each page's latest revision
 * @returns each main-namespace article that existed at `asOf` and was not a redirect then, in dump order,
 *   with `invalidUtf8` when its page held bytes that were not UTF-8 and its text holds the U+FFFD they were read as
 * @throws UserError or InputError as `openDumpInput` and `readDump` do
 * @example for await (const article of dumpSnapshotArticles('enwiki-20250101.xml.bz2', '2025-01-01T00:00:00Z')) store(article);
 */
export async function* dumpSnapshotArticles(path: string, asOf: string | null): AsyncIterable<SnapshotArticle> {
  const limit = asOf === null ? Infinity : Date.parse(asOf);
  let best: SnapshotArticle | null = null;
  let bestPage: DumpPageHeader | null = null;
  const isCandidate = (page: DumpPageHeader, timestamp: string) =>
    page.namespace === 0 && Date.parse(timestamp) <= limit && (bestPage !== page || best === null || timestamp >= best.timestamp);
  const events = readDump(openDumpInput(path), { wantText: (page, meta) => isCandidate(page, meta.timestamp) });
  for await (const event of events) {
    if (event.kind === 'revision') {
      const { page, revision } = event;
      if (revision.text === null || !isCandidate(page, revision.timestamp)) continue;
      best = { pageId: page.pageId, title: page.title, revId: revision.revId, timestamp: revision.timestamp, wikitext: revision.text };
      bestPage = page;
    } else {
      if (best !== null && bestPage === event.page && !isRedirectText(best.wikitext)) {
        // The count is the page's, all revisions: only a text that holds a replacement character took some of it.
        yield event.invalidUtf8 > 0 && best.wikitext.includes('\ufffd') ? { ...best, invalidUtf8: event.invalidUtf8 } : best;
      }
      best = null;
      bestPage = null;
    }
  }
}

/**
 * The Action API path: title lists (given, or the links of given pages) resolved 50 per request,
 * one small request per page for the revision in effect at the date, then content 50 revisions
 * per request, all through the shared polite client.
 */
export class ApiSnapshotSource {
  private readonly api: WikiClient;

  /** @throws UserError for client options out of range, as `WikiClient` does */
  constructor(options: WikiClientOptions) {
    this.api = new WikiClient(options);
  }

  /** Main-namespace titles linked from the given pages (e.g. daily "Portal:Current events" pages), in order, once each. */
  async titlesLinkedFrom(pages: readonly string[]): Promise<string[]> {
    const titles = new Set<string>();
    for (const page of pages) {
      const replies = this.api.continued({ action: 'query', prop: 'links', titles: page, plnamespace: 0, pllimit: 'max' }, LinksReply);
      for await (const reply of replies) {
        for (const entry of reply.query?.pages ?? []) for (const link of entry.links ?? []) titles.add(link.title);
      }
    }
    return [...titles];
  }

  /**
   * The revision of each title in effect at `asOf`, with its wikitext.
   *
   * @param titles - the articles, by title; a missing page, another namespace or a title given twice is skipped
   * @param asOf - the snapshot's instant, an ISO timestamp
   * @param isDone - pages already stored by an earlier attempt, skipped before any content is fetched
   * @returns the articles that existed at `asOf` and were no redirect then, 50 titles at a time in the given order
   * @throws RemoteError for a wiki that failed past the retries or sent a malformed reply
   * @example for await (const article of source.articlesAsOf(await source.titlesLinkedFrom(['Portal:Current events/2025 January 1']), '2025-01-02T00:00:00Z')) store(article);
   */
  async *articlesAsOf(titles: readonly string[], asOf: string, isDone: (pageId: number) => boolean = () => false): AsyncIterable<SnapshotArticle> {
    const seen = new Set<number>();
    for (let at = 0; at < titles.length; at += IDS_PER_REQUEST) {
      const reply = await this.api.read({ action: 'query', prop: 'info', titles: titles.slice(at, at + IDS_PER_REQUEST).join('|') }, InfoReply);
      const pages = (reply.query?.pages ?? []).flatMap((page) =>
        page.pageid !== undefined && page.ns === 0 && !page.missing && !seen.has(page.pageid) ? [{ pageId: page.pageid, title: page.title }] : [],
      );
      for (const page of pages) seen.add(page.pageId);
      const revisions = await Promise.all(pages.filter((page) => !isDone(page.pageId)).map((page) => this.revisionAsOf(page, asOf)));
      const found = revisions.filter((revision): revision is Omit<SnapshotArticle, 'wikitext'> => revision !== null);
      const texts = await revisionsById(this.api, found.map((revision) => revision.revId), 'ids|timestamp', { content: true });
      for (const revision of found) {
        const main = texts.get(revision.revId)?.slots?.main;
        const wikitext = main?.texthidden ? undefined : main?.content;
        if (wikitext !== undefined && !isRedirectText(wikitext)) yield { ...revision, wikitext };
      }
    }
  }

  private async revisionAsOf(page: { pageId: number; title: string }, asOf: string): Promise<Omit<SnapshotArticle, 'wikitext'> | null> {
    const reply = await this.api.read(
      { action: 'query', prop: 'revisions', pageids: page.pageId, rvprop: 'ids|timestamp', rvdir: 'older', rvstart: isoSeconds(new Date(asOf)), rvlimit: 1 },
      RevisionsReply,
    );
    const revision = reply.query?.pages[0]?.revisions?.[0];
    return revision ? { ...page, revId: revision.revid, timestamp: normaliseTimestamp(revision.timestamp) } : null;
  }
}
