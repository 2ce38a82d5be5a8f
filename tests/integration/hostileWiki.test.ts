/**
 * The wiki client and the weekly command against a hostile wiki on loopback (testkit/hostileWiki.ts):
 * a continuation that comes back, a reply of many megabytes, a redirect to another host, a reply
 * that drips. Each ends in one error naming the request, within bounded time, instead of a request
 * read for ever, a reply downloaded again and again, or another wiki's pages stored under this one's name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WikiClient, type WikiClientOptions } from '../../src/sources/wikiClient.js';
import { RecentChangesReply, SearchReply } from '../../src/sources/mediawikiReplies.js';
import { errorOf, runCli, tempDir } from '../../testkit/cli.js';
import { startHostileWiki, type HostileBehaviour, type HostileWiki } from '../../testkit/hostileWiki.js';
import { join } from 'node:path';
import { withCode } from '../support/errorCodes.js';

const USER_AGENT = 'wikidelta-tests/0.1 (https://example.org/wikidelta; wikidelta-tests@example.org)';
const AnyQuery = z.object({ query: z.object({}).passthrough().optional() }).passthrough();

let wikis: HostileWiki[] = [];
afterEach(async () => {
  await Promise.all(wikis.map((wiki) => wiki.stop()));
  wikis = [];
});

async function hostile(behaviour: HostileBehaviour): Promise<HostileWiki> {
  const wiki = await startHostileWiki(behaviour);
  wikis.push(wiki);
  return wiki;
}

function client(wiki: HostileWiki, options: Partial<WikiClientOptions> = {}): WikiClient {
  return new WikiClient({ apiUrl: wiki.apiUrl, userAgent: USER_AGENT, maxRetries: 1, retryBaseMs: 10, ...options });
}

async function readAll(replies: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _reply of replies) count++;
  return count;
}

describe('a hostile wiki', () => {
  it('whose continuation comes back: an error naming the request after the second reply, not a listing read for ever', async () => {
    const wiki = await hostile({ kind: 'repeated-continue' });
    const listing = client(wiki).continued({ action: 'query', list: 'allpages', apnamespace: 0, aplimit: 'max' }, AnyQuery);
    const error = await readAll(listing).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'RemoteError', code: 'E_WIKI_BAD_REPLY' });
    expect((error as Error).message).toMatch(
      /^wiki http:\/\/127\.0\.0\.1:\d+\/w\/api\.php sent the continuation \{.*"apcontinue":"A".*\} a second time for action=query&list=allpages&apnamespace=0&aplimit=max: the listing would never end$/,
    );
    expect(wiki.requests).toBe(2);
  });

  it('whose continuation moves on while its results do not: an error naming the request, not a listing read for ever', async () => {
    const wiki = await hostile({ kind: 'moving-continue' });
    const listing = client(wiki).continued({ action: 'query', list: 'allpages', apnamespace: 0, aplimit: 'max' }, AnyQuery);
    const error = await readAll(listing).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'RemoteError', code: 'E_WIKI_BAD_REPLY' });
    expect((error as Error).message).toMatch(/^wiki \S+ sent results it had sent already, under the new continuation \{.*"apcontinue":"A2".*\}, for action=query&list=allpages&apnamespace=0&aplimit=max: the listing would never end$/);
    expect(wiki.requests).toBe(2);
  });

  it('whose reply is larger than the cap: refused as it arrives, once, not downloaded again', async () => {
    const wiki = await hostile({ kind: 'huge-reply', bytes: 256 << 20 });
    const read = client(wiki, { maxReplyBytes: 1 << 20, maxRetries: 3 }).read({ action: 'query', prop: 'revisions', revids: '1|2|3' }, AnyQuery);
    await expect(read).rejects.toThrow(withCode('E_WIKI_UNREACHABLE', /^wiki http:\/\/127\.0\.0\.1:\d+\/w\/api\.php failed: a reply larger than 1 MB, the most a reply may hold, refused for action=query&prop=revisions&revids=1\|2\|3$/));
    expect(wiki.requests).toBe(1);
    expect(wiki.bytesSent).toBeLessThan(32 << 20);
  });

  it('that redirects to another host: refused, not followed; a redirect on the same host is followed', async () => {
    const elsewhere = await hostile({ kind: 'repeated-continue' });
    const wiki = await hostile({ kind: 'redirect', to: elsewhere.apiUrl });
    await expect(client(wiki, { maxRetries: 3 }).read({ action: 'query', list: 'recentchanges' }, AnyQuery)).rejects.toThrow(
      withCode('E_WIKI_UNREACHABLE', /^wiki http:\/\/127\.0\.0\.1:\d+\/w\/api\.php failed: redirected to another host \(http:\/\/127\.0\.0\.1:\d+\/w\/api\.php\?.*\): refused for action=query&list=recentchanges$/),
    );
    expect(wiki.requests).toBe(1);
    expect(elsewhere.requests).toBe(0);

    const moved = await hostile({ kind: 'redirect', to: '/api.php' });
    const reply = await client(moved).read({ action: 'query', list: 'recentchanges' }, AnyQuery);
    expect(reply.query).toMatchObject({ recentchanges: [] });
    expect(moved.requests).toBe(2);
  });

  it('that drips its reply a byte at a time: cut by the whole-request timeout, retried, then one error', async () => {
    const wiki = await hostile({ kind: 'drip', intervalMs: 100 });
    const started = Date.now();
    await expect(client(wiki, { requestTimeoutMs: 1000 }).read({ action: 'query', list: 'logevents' }, AnyQuery)).rejects.toThrow(
      withCode('E_WIKI_UNREACHABLE', /failed after 1 retry: no complete reply within 1 s for action=query&list=logevents$/),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(wiki.requests).toBe(2);
  });

  it('whose listing replies hold no listing at all ({}): a malformed reply, not an empty week done for good', async () => {
    const wiki = await hostile({ kind: 'fixed', body: '{}' });
    const db = join(tempDir(), 'w.sqlite');
    const run = await runCli(['--db', db, 'weekly', '--last-week', '--api', wiki.apiUrl, '--llm', 'offline'], { env: { WIKIDELTA_MAX_RETRIES: '0' } });
    expect(run.code, run.stderr).toBe(1);
    expect(errorOf(run.stderr)).toEqual({ code: 'E_WIKI_BAD_REPLY', message: expect.stringMatching(/^wiki \S+ sent a malformed reply \(query: .*\) to action=query&list=logevents&/) });
    // A recent-changes listing and a search that came back as {} are no more an empty listing than the log was.
    const listing = client(wiki).continued({ action: 'query', list: 'recentchanges' }, RecentChangesReply);
    await expect(readAll(listing)).rejects.toThrow(withCode('E_WIKI_BAD_REPLY'));
    await expect(client(wiki).read({ action: 'query', list: 'search', srsearch: 'x' }, SearchReply)).rejects.toThrow(withCode('E_WIKI_BAD_REPLY'));
  });

  it('whose reply is JSON null: a malformed reply at once, naming the request, not retried as a passing failure', async () => {
    const wiki = await hostile({ kind: 'fixed', body: 'null' });
    await expect(client(wiki, { maxRetries: 3 }).read({ action: 'query', list: 'logevents' }, AnyQuery)).rejects.toThrow(
      withCode('E_WIKI_BAD_REPLY', /^wiki \S+ sent a reply that is not an API reply \(JSON, but no object\) to action=query&list=logevents$/),
    );
    expect(wiki.requests).toBe(1);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Log in</body></html>'],
    ['JSON cut short', '{"batchcomplete":true,"query":{'],
  ])('whose reply is %s: a reply that is no API reply (E_WIKI_BAD_REPLY), not retried as a passing failure', async (_, body) => {
    const wiki = await hostile({ kind: 'fixed', body });
    await expect(client(wiki, { maxRetries: 3 }).read({ action: 'query', list: 'logevents' }, AnyQuery)).rejects.toThrow(
      withCode('E_WIKI_BAD_REPLY', /^wiki \S+ sent a reply that is not an API reply \(not JSON: .*\) to action=query&list=logevents$/),
    );
    expect(wiki.requests).toBe(1);
  });

  it('ends the weekly command with one line naming the request: a repeated continuation, a drip', async () => {
    const env = { WIKIDELTA_MAX_RETRIES: '1', WIKIDELTA_RETRY_BASE_MS: '10', WIKIDELTA_REQUEST_TIMEOUT_SECONDS: '1' };
    for (const [behaviour, code, line] of [
      [{ kind: 'repeated-continue' }, 'E_WIKI_BAD_REPLY', /^wiki \S+ sent the continuation .* a second time for action=query&list=logevents&/],
      [{ kind: 'drip', intervalMs: 200 }, 'E_WIKI_UNREACHABLE', /^wiki \S+ failed after 1 retry: no complete reply within 1 s for action=query&list=logevents&/],
    ] as const) {
      const wiki = await hostile(behaviour);
      const run = await runCli(['--db', join(tempDir(), 'w.sqlite'), 'weekly', '--last-week', '--api', wiki.apiUrl, '--llm', 'offline'], { env });
      expect(run.code, run.stderr).toBe(1);
      const errors = run.stderr.split('\n').filter((l) => l.startsWith('wikidelta:'));
      expect(errors).toHaveLength(1);
      expect(errorOf(run.stderr)).toEqual({ code, message: expect.stringMatching(line) });
    }
  });
});
