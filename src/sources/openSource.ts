import { UserError } from '../errors.js';
import type { Settings } from '../settings.js';
import { ApiRevisionSource } from './apiSource.js';
import { DumpRevisionSource } from './dumpSource.js';
import type { RevisionSource, WikiSite } from './RevisionSource.js';
import { wikiClientOptions } from './wikiClient.js';

export interface SourceFlags {
  api?: string;
  dump?: string;
}

/** The revision source named by `--api URL` or `--dump PATH|-` (exactly one of them). */
export function openSource(flags: SourceFlags, settings: Settings): RevisionSource {
  if (flags.api && flags.dump) throw new UserError('give either --api URL or --dump PATH, not both');
  if (flags.api) {
    let url: URL;
    try {
      url = new URL(flags.api);
    } catch {
      throw new UserError(`invalid --api URL "${flags.api}"`);
    }
    return new ApiRevisionSource(wikiClientOptions(settings, url.toString()));
  }
  if (flags.dump) return new DumpRevisionSource(flags.dump);
  throw new UserError('a source is needed: give --api URL or --dump PATH (- for standard input)');
}

/**
 * The wiki a source's page ids belong to: set explicitly, else the API's host, else the name the
 * dump's `<siteinfo>` gives (`site`, `frwiki`), else "dump".
 */
export function wikiName(flags: SourceFlags, settings: Settings, site?: WikiSite): string {
  if (settings.wiki) return settings.wiki;
  if (flags.api) return new URL(flags.api).host;
  return site?.wiki ?? 'dump';
}

export const ENGLISH_WIKIPEDIA_ARTICLES = 'https://en.wikipedia.org/wiki/';

/**
 * Where article links point: set explicitly, else derived from the API URL, else from the dump's
 * `<siteinfo><base>` (`site`), else English Wikipedia.
 */
export function articleBaseUrl(flags: SourceFlags, settings: Settings, site?: WikiSite): string {
  if (settings.articleBaseUrl) return settings.articleBaseUrl;
  if (!flags.api) return site?.articleBaseUrl ?? ENGLISH_WIKIPEDIA_ARTICLES;
  const url = new URL(flags.api);
  return url.pathname.endsWith('/w/api.php')
    ? `${url.origin}${url.pathname.replace(/\/w\/api\.php$/, '/wiki/')}`
    : `${url.origin}${url.pathname.replace(/api\.php$/, 'index.php')}?title=`;
}
