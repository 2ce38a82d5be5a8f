/**
 * The weekly golden document a model reads: an entity's page as its data unit reads (docs/ARCHITECTURE.md
 * §16), titled by its label, its values and property keys named from the store, never `{{Q865}}` or a
 * bare entity id; an article's infobox as it is.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { windowFrom } from '../../../src/dates.js';
import { goldenDocument } from '../../../src/evaluate/predictWeekly.js';
import { OfflineBaselineTasks } from '../../../src/llm/offlineBaselineTasks.js';
import { referenceText } from '../../../src/llm/openaiBaselineTasks.js';
import type { Infobox, Revision } from '../../../src/model.js';
import { openDatabase } from '../../../src/store/database.js';
import { EntityStore } from '../../../src/store/entityStore.js';
import { RevisionReads } from '../../../src/store/revisionReads.js';
import { RevisionStore } from '../../../src/store/revisionStore.js';
import { tempDir } from '../../../testkit/cli.js';

const dir = tempDir('wikidelta-golden-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const window = windowFrom('2023-01-02', 7);
const revision = (revId: number, timestamp: string): Revision => ({ revId, parentId: null, timestamp, sha1: null, comment: '', user: 'u', minor: false, text: null });

function storeWith(pages: Array<{ pageId: number; title: string; infobox: Infobox; entity?: { id: string; label: string } }>) {
  const db = openDatabase(join(dir, `${pages[0]?.title}.sqlite`));
  for (const page of pages) {
    const store = new RevisionStore(db, 'w');
    const entity = page.entity && { ...page.entity, aliases: [], enwiki: null, timed: [] };
    store.saveParsedRevisions({ pageId: page.pageId, title: page.title, namespace: 0 }, [{ ...revision(page.pageId * 10, '2023-01-03T10:00:00Z'), ...(entity ? { model: 'wikibase-item' } : {}) }], [{ pageId: page.pageId, revId: page.pageId * 10, infoboxes: [page.infobox], firstParagraph: '', ...(entity ? { entity } : {}) }], { window, keepContent: false });
  }
  new EntityStore(db).saveNames(
    new Map([
      ['P17', { label: 'country', aliases: [] }],
      ['P1082', { label: 'population', aliases: [] }],
      ['Q865', { label: 'Taiwan', aliases: ['Republic of China'] }],
    ]),
    'test',
  );
  return db;
}

describe('the weekly golden document', () => {
  it("reads an entity's facts by label, titled by the entity's label, and the offline rules answer with the label", async () => {
    const db = storeWith([
      { pageId: 7, title: 'Q706421', entity: { id: 'Q706421', label: 'Neihu District' }, infobox: { template: 'wikibase-item', fields: [['P17', '{{Q865}}; {{Q99999}}'], ['P1082', '287746']] } },
    ]);
    try {
      const document = goldenDocument(new RevisionReads(db), new EntityStore(db), { wiki: 'w', pageId: 7, key: 'P17', template: 'wikibase-item' }, '2023-01-09T00:00:00Z');
      expect(document).toEqual({ title: 'Neihu District', text: '', infobox: { P17: 'Taiwan; Q99999', P1082: '287746' }, keyLabels: { P17: 'country', P1082: 'population' } });
      // What a model is shown: properties by their labels beside their ids.
      expect(referenceText(document!)).toContain('country (P17): Taiwan; Q99999\npopulation (P1082): 287746');
      const answer = await new OfflineBaselineTasks().answerFromDocument({ text: 'What is the country of Neihu District?', date: '2023-01-09', key: 'P17' }, document!);
      expect(answer).toMatchObject({ ok: true, value: { answer: 'Taiwan; Q99999' } });
    } finally {
      db.close();
    }
  });

  it("keeps an article's title and infobox as they are", () => {
    const db = storeWith([{ pageId: 3, title: 'Karlsruhe', infobox: { template: 'settlement', fields: [['population_total', '308,436'], ['leader_name', 'Frank Mentrup']] } }]);
    try {
      const document = goldenDocument(new RevisionReads(db), new EntityStore(db), { wiki: 'w', pageId: 3, key: 'population_total', template: 'settlement' }, '2023-01-09T00:00:00Z');
      expect(document).toEqual({ title: 'Karlsruhe', text: '', infobox: { population_total: '308,436', leader_name: 'Frank Mentrup' }, keyLabels: {} });
    } finally {
      db.close();
    }
  });
});
