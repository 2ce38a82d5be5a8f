/**
 * Where a weekly run's descriptiveness check searches, from the settings: the wiki's own search when
 * the run reads an API (unless told otherwise), else nothing, and the check stage builds the local
 * index over the pages stored by then.
 */
import { UserError } from '../errors.js';
import type { SearchBackend } from '../search/searchBackend.js';
import { WikiSearch } from '../search/wikiSearch.js';
import type { Settings } from '../settings.js';
import { wikiClientOptions, type WikiClientSettings } from '../sources/wikiClient.js';

export function searchBackendFor(
  settings: Pick<Settings, 'search'> & WikiClientSettings,
  flags: { api?: string },
): SearchBackend | undefined {
  const search = settings.search === 'auto' ? (flags.api ? 'wiki' : 'local') : settings.search;
  if (search === 'local') return undefined;
  if (!flags.api) throw new UserError('E_FLAG_MISSING', 'search "wiki" needs the wiki: give --api URL (or use search "local")');
  return new WikiSearch(wikiClientOptions(settings, flags.api));
}
