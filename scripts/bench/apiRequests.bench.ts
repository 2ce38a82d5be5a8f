/**
 * How many Action API requests the API source spends per collected page, against a real MediaWiki
 * on loopback that imported the sample history, counted at a proxy in front of it: a one-year
 * window (read from recent changes) and the whole range (read page by page from all articles).
 */
import { join } from 'node:path';
import type { Window } from '../../src/model.js';
import { ApiRevisionSource } from '../../src/sources/apiSource.js';
import { startFaultProxy } from '../../testkit/faultProxy.js';
import { startMediaWiki } from '../../testkit/mediawiki.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
const USER_AGENT = 'wikidelta-bench/0.1 (https://example.org/wikidelta; wikidelta-bench@example.org)';

const RUNS: Array<{ name: string; window: Window }> = [
  { name: 'api_requests_per_page', window: { start: '2020-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z' } },
  { name: 'api_requests_per_page_whole_range', window: { start: '2018-01-01T00:00:00Z', end: '2022-01-01T00:00:00Z' } },
];

const wiki = await startMediaWiki({ dumps: [SAMPLE] });
const proxy = await startFaultProxy(wiki.baseUrl);
try {
  const source = new ApiRevisionSource({ apiUrl: `${proxy.baseUrl}/api.php`, userAgent: USER_AGENT });
  for (const { name, window } of RUNS) {
    proxy.resetCounts();
    const started = performance.now();
    let pages = 0;
    let revisions = 0;
    for await (const part of source.pagesChangedIn(window)) {
      if (part.kind === 'end') pages++;
      else revisions += part.revisions.length;
    }
    const seconds = (performance.now() - started) / 1000;
    const { total, byKind } = proxy.counts();
    report(name, total / Math.max(pages, 1), 'requests/page', {
      window,
      requests: total,
      pages,
      revisions,
      seconds: Number(seconds.toFixed(3)),
      byKind,
    });
  }
} finally {
  await proxy.close();
  await wiki.stop();
}
