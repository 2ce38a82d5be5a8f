import { beforeAll, describe, expect, it } from 'vitest';
import { answerAskedSubject, answerInstant, answerSubject, type Answer } from '../../../src/timeline/answers.js';
import { Store } from '../../../src/store/store.js';
import { refusal } from '../../support/errorCodes.js';

/**
 * `answer --title T --key K [--template X]` as users write the key and the template: read as the
 * parser reads wikitext, and a template names the one infobox answered from. A page with two
 * infoboxes holding the same key (a software and a file format box), a page whose template was
 * replaced, and a Wikidata entity whose keys are properties.
 */
let store: Store;
const QUILLSTONE = { wiki: 'enwiki', pageId: 1, title: 'Quillstone' };
const EDDA = { wiki: 'enwiki', pageId: 2, title: 'Edda Marrow' };
const BIELEFELD = { wiki: 'wikidatawiki', pageId: 3, title: 'Bielefeld' };

beforeAll(() => {
  store = Store.open(':memory:');
  const db = store.db;
  const interval = db.prepare(
    'INSERT INTO infobox_intervals (wiki, page_id, slot, key, template, value, valid_from, valid_to, rev_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const page of [QUILLSTONE, EDDA, BIELEFELD]) {
    db.prepare('INSERT INTO page_lifetimes (wiki, page_id, created_at) VALUES (?, ?, ?)').run(page.wiki, page.pageId, '2025-01-01T00:00:00Z');
    db.prepare('INSERT INTO page_coverage (wiki, page_id, covered_from, covered_until) VALUES (?, ?, ?, ?)').run(page.wiki, page.pageId, '2025-01-01T00:00:00Z', '2025-12-31T00:00:00Z');
  }
  interval.run('enwiki', 1, 'software', 'latest_release_version', 'software', '4.2.1', '2025-01-01T00:00:00Z', null, 11);
  interval.run('enwiki', 1, 'software', 'genre', 'software', 'Typesetting', '2025-01-01T00:00:00Z', null, 11);
  interval.run('enwiki', 1, 'file format', 'latest_release_version', 'file format', '4', '2025-02-01T00:00:00Z', null, 12);
  interval.run('enwiki', 2, 'person', 'party', 'person', 'Independent', '2025-01-01T00:00:00Z', '2025-02-06T00:00:00Z', 21);
  interval.run('enwiki', 2, 'person', 'party', 'officeholder', 'Civic Harbour Party', '2025-02-06T00:00:00Z', null, 22);
  interval.run('wikidatawiki', 3, 'wikibase-item', 'P1082', 'wikibase-item', '334002', '2025-01-01T00:00:00Z', null, 31);
  store.entities.saveNames(new Map([['P1082', { label: 'population', aliases: [] }]]), 'test');
});

const ask = (page: typeof QUILLSTONE, key: string, template?: string, date = '2025-03-01'): Answer =>
  answerAskedSubject(store, { ...page, key, template }, answerInstant(date));


describe('answers for a key and template as a user writes them', () => {
  it('reads --template as the parser reads template names, and answers from that infobox', () => {
    for (const template of ['file format', 'Infobox file format', 'File format', 'FILE FORMAT', 'file_format', 'Template:Infobox_file_format', ' infobox  File_Format ']) {
      expect(ask(QUILLSTONE, 'latest_release_version', template), template).toMatchObject({ status: 'ok', answer: '4' });
    }
    expect(ask(QUILLSTONE, 'latest_release_version', 'Infobox software')).toMatchObject({ status: 'ok', answer: '4.2.1' });
  });

  it("refuses a template none of the page's infoboxes has had, naming those it has, rather than answering from another", () => {
    for (const template of ['nope', 'file', 'officeholder', '']) {
      const error = refusal(() => ask(QUILLSTONE, 'latest_release_version', template));
      expect(error.code).toBe('E_FLAG_INVALID');
      expect(error.message).toContain('Quillstone');
      expect(error.message).toContain('file format, software');
      expect(error.message).not.toContain('\n');
    }
  });

  it('answers no_key for a key the named infobox lacks, never the value of another infobox', () => {
    expect(ask(QUILLSTONE, 'genre', 'file format')).toMatchObject({ status: 'no_key', answer: null });
    expect(ask(QUILLSTONE, 'genre')).toMatchObject({ status: 'ok', answer: 'Typesetting' });
  });

  it('reads --key as the parser reads keys', () => {
    for (const key of ['latest release version', 'Latest_Release_Version', 'latest-release  version', ' LATEST_RELEASE_VERSION ']) {
      expect(ask(QUILLSTONE, key, 'software'), key).toMatchObject({ status: 'ok', answer: '4.2.1' });
    }
    expect(ask(QUILLSTONE, 'no such key').status).toBe('no_key');
  });

  it("without a template answers as a stored query's subject does: from the infobox that set the key last", () => {
    expect(ask(QUILLSTONE, 'Latest release version')).toEqual(answerSubject(store, { ...QUILLSTONE, key: 'latest_release_version' }, answerInstant('2025-03-01')));
    expect(ask(QUILLSTONE, 'latest release version')).toMatchObject({ answer: '4' });
  });

  it('follows an infobox across a template replacement under either template', () => {
    expect(ask(EDDA, 'party', 'Infobox officeholder', '2025-02-05')).toMatchObject({ status: 'ok', answer: 'Independent' });
    expect(ask(EDDA, 'party', 'person', '2025-02-07')).toMatchObject({ status: 'ok', answer: 'Civic Harbour Party' });
  });

  it("keeps a page's lifetime first: no_page before it existed, whatever the key", () => {
    expect(ask(QUILLSTONE, 'genre', 'file format', '2024-12-01').status).toBe('no_page');
  });

  it('finds a Wikidata property however its case is written, or by its English label as changes shows it', () => {
    for (const key of ['P1082', 'p1082', 'population', 'Population']) expect(ask(BIELEFELD, key, 'wikibase-item'), key).toMatchObject({ status: 'ok', answer: '334002' });
    expect(ask(BIELEFELD, 'area').status).toBe('no_key');
  });
});
