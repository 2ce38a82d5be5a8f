import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { templateLabels } from '../../src/diff/infoboxDiff.js';
import { selectDataUnits } from '../../src/select/dataUnits.js';
import type { DataUnit } from '../../src/model/weekly.js';
import { ChangeStore } from '../../src/store/changeStore.js';

/** select: the week's DailyQA data units, replaced as a whole so a rerun gives the same set. */
export const selectStage: Stage<WeeklyInput> = {
  name: 'select',
  after: ['diff'],
  async run(input, context) {
    const store = new ChangeStore(context.db, input.wiki);
    const candidates = store.changesIn(input.window, { onlyCandidates: true }).filter((change) => change.revertedBy === null);
    const chosen = selectDataUnits(candidates, input.seed);
    const units: DataUnit[] = chosen.map((change) => {
      const infoboxes = store.infoboxes(change.pageId, change.revId);
      const index = templateLabels(infoboxes).indexOf(change.template);
      const title = store.pageTitle(change.pageId);
      const firstParagraph = store.pageRevisions(change.pageId).find((r) => r.revId === change.revId)?.firstParagraph ?? '';
      return {
        wiki: input.wiki,
        windowStart: input.window.start,
        windowEnd: input.window.end,
        pageId: change.pageId,
        title,
        url: articleUrl(input.articleBaseUrl, title),
        revId: change.revId,
        prevRevId: change.prevRevId,
        timestamp: change.timestamp,
        template: change.template,
        key: change.key,
        old: change.old,
        new: change.new,
        infobox: Object.fromEntries(infoboxes[index]?.fields ?? []),
        firstParagraph,
        seed: String(input.seed),
      };
    });
    store.replaceDataUnits(input.window, units);
    return { candidates: candidates.length, pages: new Set(candidates.map((c) => c.pageId)).size, data_units: units.length };
  },
};

export function articleUrl(base: string, title: string): string {
  return `${base}${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}
