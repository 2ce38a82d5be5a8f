import type { Window } from '../../src/model.js';
import type { Reporter } from '../../src/runs/progress.js';
import type { RevisionStore } from '../../src/store/revisionStore.js';

/**
 * The week's pages whose infoboxes are filled from Wikidata (docs/ARCHITECTURE.md §16), as counts of
 * the parse stage (shown in the week's summary and by `status`) and one warning naming the way to
 * their facts: a wiki where most infoboxes are such gives few changes, and the changes are in the
 * pages' Wikidata entities.
 */
export function reportWikidataDriven(store: RevisionStore, window: Window, reporter: Reporter): Record<string, number> {
  const templates = store.wikidataDrivenTemplates(window);
  const pages = templates.reduce((sum, { pages: count }) => sum + count, 0);
  if (pages === 0) return {};
  reporter.warn('infoboxes filled from Wikidata: their values change in the pages\' Wikidata entities, not in the wiki; collect those (a wikidatawiki dump, or --api https://www.wikidata.org/w/api.php) for their facts', {
    pages,
    templates: templates.map(({ template, pages: count }) => `${template} (${count})`).join(', '),
  });
  return { wikidata_driven_pages: pages, ...Object.fromEntries(templates.map(({ template, pages: count }) => [`wikidata_driven:${template}`, count])) };
}
