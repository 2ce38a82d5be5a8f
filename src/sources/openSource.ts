import { UserError } from '../errors.js';
import type { Settings } from '../settings.js';
import { ApiRevisionSource } from './apiSource.js';
import { DumpRevisionSource } from './dumpSource.js';
import type { RevisionSource, WikiSite } from './RevisionSource.js';
import { wikiClientOptions } from './wikiClient.js';

/** The command-line flags that name a revision source: one of them is given. */
export interface SourceFlags {
  api?: string;
  dump?: string;
}

/**
 * The revision source named by `--api URL` or `--dump PATH|-` (exactly one of them): what a command
 * that collects calls to get its `RevisionSource`.
 *
 * @param flags - the command's `--api` and `--dump` values
 * @param settings - the wiki client's settings (User-Agent, requests in flight, retries, timeouts)
 * @returns an `ApiRevisionSource` for `--api`, a `DumpRevisionSource` for `--dump`
 * @throws UserError when both or neither flag is given, or the `--api` value is not a URL
 * @example openSource({ dump: 'enwiki-pages-meta-history1.xml.bz2' }, settings).origin // 'dump:/abs/path/enwiki-…bz2'
 */
export function openSource(flags: SourceFlags, settings: Settings): RevisionSource {
  if (flags.api && flags.dump) throw new UserError('E_FLAGS_CONFLICT', 'give either --api URL or --dump PATH, not both');
  if (flags.api) return new ApiRevisionSource(wikiClientOptions(settings, apiUrl(flags.api, '--api').toString()));
  if (flags.dump) return new DumpRevisionSource(flags.dump);
  throw new UserError('E_FLAG_MISSING', 'a source is needed: give --api URL or --dump PATH (- for standard input)');
}

/**
 * An Action API endpoint as a flag gives it: an http or https URL (another scheme would only fail
 * later, after every retry, as a wiki that does not answer).
 *
 * @throws UserError (`E_FLAG_INVALID`) naming the flag for anything else
 * @example apiUrl('https://en.wikipedia.org/w/api.php', '--api').host // 'en.wikipedia.org'
 */
export function apiUrl(text: string, flag: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Refused below, with the flag named.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UserError('E_FLAG_INVALID', `invalid ${flag} URL "${text}": expected an http or https address of api.php`);
  return url;
}

/**
 * The wiki a source's page ids belong to: set explicitly, else the API's host, else the name the
 * dump's `<siteinfo>` gives (`site`, `frwiki`), else "dump".
 *
 * @example wikiName({ api: 'https://en.wikipedia.org/w/api.php' }, settings) // 'en.wikipedia.org' (without a `wiki` setting)
 */
export function wikiName(flags: SourceFlags, settings: Settings, site?: WikiSite): string {
  if (settings.wiki) return settings.wiki;
  if (flags.api) return new URL(flags.api).host;
  return site?.wiki ?? 'dump';
}

/** Where article links point when neither a setting nor an API URL says otherwise. */
export const ENGLISH_WIKIPEDIA_ARTICLES = 'https://en.wikipedia.org/wiki/';

/**
 * Where article links point: set explicitly, else derived from the API URL, else from the dump's
 * `<siteinfo><base>` (`site`), else English Wikipedia.
 *
 * @returns a prefix the (underscored) title is appended to
 * @example articleBaseUrl({ api: 'https://de.wikipedia.org/w/api.php' }, settings) // 'https://de.wikipedia.org/wiki/'
 */
export function articleBaseUrl(flags: SourceFlags, settings: Settings, site?: WikiSite): string {
  if (settings.articleBaseUrl) return settings.articleBaseUrl;
  if (!flags.api) return site?.articleBaseUrl ?? ENGLISH_WIKIPEDIA_ARTICLES;
  const url = new URL(flags.api);
  return url.pathname.endsWith('/w/api.php')
    ? `${url.origin}${url.pathname.replace(/\/w\/api\.php$/, '/wiki/')}`
    : `${url.origin}${url.pathname.replace(/api\.php$/, 'index.php')}?title=`;
}
