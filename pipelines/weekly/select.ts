import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { idsOfFact, namedInfobox, namesOf, pageName, renderValue } from '../../src/content/entityRefs.js';
import { templateLabels } from '../../src/diff/infoboxDiff.js';
import { selectDataUnits, unnamedThroughWindow } from '../../src/select/dataUnits.js';
import type { DataUnit, StoredChange } from '../../src/model/weekly.js';
import { ENGLISH_WIKIPEDIA_ARTICLES } from '../../src/sources/openSource.js';

/**
 * Where an entity's page is when the run's article base is the default (a dump whose `<siteinfo>`
 * has no `<base>`: English Wikipedia's): an entity is never an English Wikipedia article
 * (docs/ARCHITECTURE.md §16).
 */
const WIKIDATA_ARTICLES = 'https://www.wikidata.org/wiki/';

/**
 * select: the week's DailyQA data units, replaced as a whole so a rerun gives the same set. Entity
 * facts are named here (docs/ARCHITECTURE.md §16): a change is a candidate only when its entity, its
 * property and every entity its old and new values name have an English label (the old value is the
 * answer of the week's days before the change, in the release's day files) and no later change of its
 * key in the week names one without (the days after it), and its unit reads with
 * labels where the store keeps ids.
 */
export const selectStage: Stage<WeeklyInput> = {
  name: 'select',
  after: ['diff'],
  reads: ['labels'],
  async run(input, context) {
    const store = context.store.changes(input.wiki);
    const entities = context.store.entities;
    // The window's pages only: a page collected for another window, or before a collect redone since, is not this week's.
    const windowPages = new Set(store.windowPageIds(input.window));
    const changes = store
      .changesIn(input.window, { onlyCandidates: true })
      .filter((change) => change.revertedBy === null && windowPages.has(change.pageId));
    const idsOf = (change: StoredChange) => [...idsOfFact(change.key, change.new), ...idsOfFact(change.key, change.old)];
    const names = namesOf(entities, changes.flatMap(idsOf));
    // Each page's entity read once, for its changes and its unit.
    const entityPages = new Map([...new Set(changes.map((change) => change.pageId))].map((pageId) => [pageId, entities.entityPage(input.wiki, pageId)]));
    const unnamed = (change: StoredChange) => {
      const page = entityPages.get(change.pageId);
      return page !== undefined && (page.label === null || idsOf(change).some((id) => !names(id)?.label));
    };
    // A change is left out too when its key later in the week names an entity without a label: the days after would answer an id.
    const leftOut = unnamedThroughWindow(changes, unnamed);
    const candidates = changes.filter((change) => !leftOut.has(change));
    const chosen = selectDataUnits(candidates, input.seed);
    const units: DataUnit[] = chosen.map((change) => {
      const infoboxes = store.infoboxes(change.pageId, change.revId);
      const fields = infoboxes[templateLabels(infoboxes).indexOf(change.template)]?.fields ?? [];
      const { values, keyLabels, names: unitNames } = namedInfobox(fields, entities, [change.old]);
      const entity = entityPages.get(change.pageId);
      const pageTitle = store.pageTitle(change.pageId);
      const firstParagraph = store.pageRevisions(change.pageId).find((r) => r.revId === change.revId)?.firstParagraph ?? '';
      return {
        wiki: input.wiki,
        windowStart: input.window.start,
        windowEnd: input.window.end,
        pageId: change.pageId,
        title: pageName(entity, pageTitle),
        url: articleUrl(entity && input.articleBaseUrl === ENGLISH_WIKIPEDIA_ARTICLES ? WIKIDATA_ARTICLES : input.articleBaseUrl, pageTitle),
        revId: change.revId,
        prevRevId: change.prevRevId,
        timestamp: change.timestamp,
        template: change.template,
        key: change.key,
        old: renderValue(change.old, unitNames).text,
        new: renderValue(change.new, unitNames).text,
        infobox: values,
        keyLabels,
        firstParagraph,
        seed: String(input.seed),
      };
    });
    store.replaceDataUnits(input.window, units);
    return {
      candidates: candidates.length,
      unnamed: changes.length - candidates.length,
      pages: new Set(candidates.map((c) => c.pageId)).size,
      data_units: units.length,
    };
  },
};

export function articleUrl(base: string, title: string): string {
  return `${base}${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}
