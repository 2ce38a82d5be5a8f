import type { Migration } from './migration.js';

/**
 * Where each wiki's articles are, as the last run that read its source found them (a dump's
 * `<siteinfo><base>`, the API's article path, or the `articleBaseUrl` setting), so a run given no
 * source (`weekly --redo select` without `--dump`) links its data units to the same site
 * (docs/ARCHITECTURE.md §3). A store made before it has none recorded: its runs link as they did.
 */
export const wikiArticleBases: Migration = {
  version: 23,
  name: 'the article base URL of each wiki',
  sql: `
      CREATE TABLE wikis (
        wiki TEXT PRIMARY KEY,
        article_base_url TEXT NOT NULL
      ) WITHOUT ROWID;
  `,
};
