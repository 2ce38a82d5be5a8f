import { beforeAll, describe, expect, it } from 'vitest';
import { findPageByTitle } from '../../../src/timeline/pageLookup.js';
import { Store } from '../../../src/store/store.js';
import { refusal } from '../../support/errorCodes.js';

/**
 * `answer --title T`: the page a title names, by its title or, for a Wikidata entity, its English label.
 * A label is not a title (MediaWiki's first-letter rule does not apply to it: `iPhone`), and a store
 * that holds an English Wikipedia week beside Wikidata weeks may hold a page titled like an entity's
 * label: the title names two pages, and the answer must not come from one of them silently.
 */
let store: Store;

beforeAll(() => {
  store = Store.open(':memory:');
  const page = store.db.prepare('INSERT INTO pages (wiki, page_id, title) VALUES (?, ?, ?)');
  const entity = store.db.prepare('INSERT INTO entity_pages (wiki, page_id, entity_id, label, as_of, rev_id) VALUES (?, ?, ?, ?, ?, ?)');
  page.run('wikidatawiki', 2112, 'Q2112');
  entity.run('wikidatawiki', 2112, 'Q2112', 'Bielefeld', '2023-01-17T10:00:00Z', 21120005);
  page.run('wikidatawiki', 2766, 'Q2766');
  entity.run('wikidatawiki', 2766, 'Q2766', 'iPhone', '2023-01-17T10:00:00Z', 27660001);
  page.run('enwiki', 2112, 'Bielefeld');
  page.run('enwiki', 3354, 'Berlin');
  // Two entities called Springfield; a page moved away from "Old Town" and one that took the title since.
  page.run('wikidatawiki', 28515, 'Q28515');
  entity.run('wikidatawiki', 28515, 'Q28515', 'Springfield', '2023-01-17T10:00:00Z', 285150001);
  page.run('wikidatawiki', 151213, 'Q151213');
  entity.run('wikidatawiki', 151213, 'Q151213', 'Springfield', '2023-01-17T10:00:00Z', 1512130001);
  const move = store.db.prepare('INSERT INTO page_moves (wiki, page_id, timestamp, from_title, to_title) VALUES (?, ?, ?, ?, ?)');
  page.run('enwiki', 500, 'Old Town (Lübeck)');
  move.run('enwiki', 500, '2024-02-01T00:00:00Z', 'Old Town', 'Old Town (Lübeck)');
  page.run('enwiki', 600, 'Old Town (Prague)');
  move.run('enwiki', 600, '2024-03-01T00:00:00Z', 'Old Town', 'Old Town (Prague)');
  page.run('enwiki', 700, 'Kestrel Vale');
  move.run('enwiki', 700, '2024-03-01T00:00:00Z', 'Kestrel', 'Kestrel Vale');
  page.run('enwiki', 800, 'Kestrel');
});


describe('the page a title names', () => {
  it('finds an entity by its English label as written, a lowercase first letter included', () => {
    expect(findPageByTitle(store, 'iPhone')).toEqual({ wiki: 'wikidatawiki', pageId: 2766 });
    expect(findPageByTitle(store, ' iPhone ')).toEqual({ wiki: 'wikidatawiki', pageId: 2766 });
    expect(findPageByTitle(store, 'Q2766')).toEqual({ wiki: 'wikidatawiki', pageId: 2766 });
    expect(findPageByTitle(store, 'bielefeld', 'wikidatawiki')).toEqual({ wiki: 'wikidatawiki', pageId: 2112 });
  });

  it('refuses a title that names pages of several wikis, in one line naming them, and answers within the wiki named', () => {
    const error = refusal(() => findPageByTitle(store, 'Bielefeld'));
    expect(error.code).toBe('E_WIKI_AMBIGUOUS');
    expect(error.message).toContain('enwiki, wikidatawiki');
    expect(error.message).not.toContain('\n');
    expect(findPageByTitle(store, 'Bielefeld', 'wikidatawiki')).toEqual({ wiki: 'wikidatawiki', pageId: 2112 });
    expect(findPageByTitle(store, 'Bielefeld', 'enwiki')).toEqual({ wiki: 'enwiki', pageId: 2112 });
    expect(findPageByTitle(store, 'berlin')).toEqual({ wiki: 'enwiki', pageId: 3354 });
  });

  it('refuses a label or a former title that several pages of the wiki have had, naming them, and takes a title now before a former one', () => {
    const label = refusal(() => findPageByTitle(store, 'Springfield'));
    expect([label.code, label.message]).toEqual(['E_TITLE_AMBIGUOUS', '"Springfield" is the English label of 2 pages (Q28515, Q151213): name one by its title']);
    const former = refusal(() => findPageByTitle(store, 'Old Town'));
    expect([former.code, former.message]).toEqual(['E_TITLE_AMBIGUOUS', '"Old Town" is a former title of 2 pages (Old Town (Lübeck), Old Town (Prague)): name one by its title']);
    expect(findPageByTitle(store, 'Q151213')).toEqual({ wiki: 'wikidatawiki', pageId: 151213 });
    expect(findPageByTitle(store, 'Kestrel')).toEqual({ wiki: 'enwiki', pageId: 800 });
  });
});
