/**
 * The embedded sample as a dump made after one of its articles was merged into another: the season
 * article "2024–25 Port Aldwin Rovers F.C." (page 108, behind a kept query of the week of 20 January
 * 2025) became a redirect to the club on 25 March 2025, after its last edit and before the dump's newest revision (27 March), so the dump's page carries `<redirect>` and
 * ends with the redirect revision, as Wikipedia's dumps show a merged article.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli.js';

export const MERGED_PAGE = { pageId: 108, title: '2024–25 Port Aldwin Rovers F.C. season', target: 'Port Aldwin Rovers F.C.' };
export const MERGED_AT = '2025-03-25T12:00:00Z';
export const REDIRECT_REV_ID = 1066;

/** Writes the sample with page 108 merged to `path` and returns it. */
export function writeRedirectedSample(path: string): string {
  const sample = readFileSync(join(repoRoot, 'data/sample/sample-history.xml'), 'utf8');
  const header = `<title>${MERGED_PAGE.title}</title>`;
  const start = sample.indexOf(header);
  const end = sample.indexOf('</page>', start);
  if (start < 0 || end < 0 || !sample.slice(start, end).includes(`<id>${MERGED_PAGE.pageId}</id>`)) throw new Error(`the sample has no page ${MERGED_PAGE.pageId}`);
  const redirect = `<revision><id>${REDIRECT_REV_ID}</id><timestamp>${MERGED_AT}</timestamp><contributor><username>Merger</username><id>9</id></contributor><comment>merged into [[${MERGED_PAGE.target}]]</comment><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">#REDIRECT [[${MERGED_PAGE.target}]]</text></revision>\n  `;
  const page = sample
    .slice(start, end)
    .replace(`<id>${MERGED_PAGE.pageId}</id>`, `<id>${MERGED_PAGE.pageId}</id>\n    <redirect title="${MERGED_PAGE.target}" />`);
  writeFileSync(path, `${sample.slice(0, start)}${page}${redirect}${sample.slice(end)}`);
  return path;
}
