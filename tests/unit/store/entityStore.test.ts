import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/database.js';
import { EntityStore } from '../../../src/store/entityStore.js';
import { RevisionStore } from '../../../src/store/revisionStore.js';

const folder = mkdtempSync(join(tmpdir(), 'wikidelta-entity-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WINDOW = { start: '2023-01-02T00:00:00Z', end: '2023-01-09T00:00:00Z' };

function stores(name: string) {
  const db = openDatabase(join(folder, `${name}.sqlite`));
  return { entities: new EntityStore(db), revisions: new RevisionStore(db, 'wikidatawiki') };
}

/** Stores Q5's page with one parsed revision of `timestamp` naming it `label`. */
function storeHumanPage(revisions: RevisionStore, timestamp: string, label: string | null): void {
  const entity = { id: 'Q5', label, aliases: [], enwiki: 'Human', timed: [] };
  const revision = { revId: Date.parse(timestamp) / 1000, parentId: null, timestamp, sha1: null, comment: '', user: 'Ed', minor: false, model: 'wikibase-item', infoboxes: [], firstParagraph: '', entity };
  revisions.saveParsedPage(WINDOW, { pageId: 5, title: 'Q5', namespace: 0 }, [revision], { moves: [], predecessors: [], followers: [] });
}

const label = (entities: EntityStore, id = 'Q5') => entities.names([id]).get(id)?.label;

describe('names read from a dump (dated) in the labels cache', () => {
  it('keeps the newest revision of any dump; an older dump read later changes nothing', () => {
    const { entities } = stores('dumps');
    entities.saveDatedNames([{ id: 'Q5', label: 'human', aliases: ['person'], asOf: '2022-06-01T00:00:00Z' }], 'dump:a.xml');
    entities.saveDatedNames([{ id: 'Q5', label: 'former human', aliases: [], asOf: '2022-03-01T00:00:00Z' }], 'dump:old.xml');
    expect(entities.names(['Q5']).get('Q5')).toEqual({ label: 'human', aliases: ['person'] });
    entities.saveDatedNames([{ id: 'Q5', label: 'human being', aliases: [], asOf: '2023-02-01T00:00:00Z' }], 'dump:new.xml');
    expect(label(entities)).toBe('human being');
  });

  it("never replaces a name a labels file or wbgetentities gave, but fills their miss: a partial labels file named none", () => {
    const { entities } = stores('answers');
    entities.saveNames(new Map([['Q5', { label: 'human', aliases: [] }], ['Q404', null]]), 'wbgetentities:https://www.wikidata.org/w/api.php');
    entities.saveDatedNames([{ id: 'Q5', label: 'from a dump', aliases: [], asOf: '2099-01-01T00:00:00Z' }, { id: 'Q404', label: 'named in a dump', aliases: ['alias'], asOf: '2022-01-01T00:00:00Z' }], 'dump:a.xml');
    expect(label(entities)).toBe('human');
    expect(entities.names(['Q404']).get('Q404')).toEqual({ label: 'named in a dump', aliases: ['alias'] });
  });

  it('names an entity the store holds as a page by the newer of its latest stored revision and the dump name', () => {
    const older = stores('page-newer');
    older.entities.saveDatedNames([{ id: 'Q5', label: 'former human', aliases: [], asOf: '2022-03-01T00:00:00Z' }], 'dump:a.xml');
    storeHumanPage(older.revisions, '2023-01-03T00:00:00Z', 'human');
    expect(label(older.entities)).toBe('human');

    const newer = stores('dump-newer');
    storeHumanPage(newer.revisions, '2023-01-03T00:00:00Z', 'human');
    newer.entities.saveDatedNames([{ id: 'Q5', label: 'human being', aliases: [], asOf: '2023-02-01T00:00:00Z' }], 'dump:a.xml');
    expect(label(newer.entities)).toBe('human being');

    // An undated answer is the name only of an entity no page names, as before.
    const undated = stores('undated');
    undated.entities.saveNames(new Map([['Q5', { label: 'from the API', aliases: [] }]]), 'wbgetentities:api');
    storeHumanPage(undated.revisions, '2023-01-03T00:00:00Z', 'human');
    expect(label(undated.entities)).toBe('human');
  });

  it('names by id an entity whose newest revision has no English label: a removed label does not stay its name', () => {
    // A dump's last revision without a label replaces an older dump's name, and the labels stage does not ask for it again.
    const dumps = stores('label-removed-in-dump');
    dumps.entities.saveDatedNames([{ id: 'Q5', label: 'human', aliases: ['person'], asOf: '2022-06-01T00:00:00Z' }], 'dump:a.xml');
    dumps.entities.saveDatedNames([{ id: 'Q5', label: null, aliases: [], asOf: '2023-02-01T00:00:00Z' }], 'dump:b.xml');
    expect(dumps.entities.names(['Q5']).get('Q5')).toEqual({ label: null, aliases: [] });
    // An older dump read later gives the label back to no one.
    dumps.entities.saveDatedNames([{ id: 'Q5', label: 'human', aliases: [], asOf: '2022-06-01T00:00:00Z' }], 'dump:a.xml');
    expect(label(dumps.entities)).toBeNull();

    // The store's page, whose latest revision dropped the label, outweighs an older dump's name.
    const page = stores('label-removed-on-page');
    page.entities.saveDatedNames([{ id: 'Q5', label: 'human', aliases: [], asOf: '2022-06-01T00:00:00Z' }], 'dump:a.xml');
    storeHumanPage(page.revisions, '2023-01-03T00:00:00Z', null);
    expect(label(page.entities)).toBeNull();
    // A dump read later whose last revision is newer and has a label names it again.
    page.entities.saveDatedNames([{ id: 'Q5', label: 'human being', aliases: [], asOf: '2023-02-01T00:00:00Z' }], 'dump:c.xml');
    expect(label(page.entities)).toBe('human being');

    // An undated name (a labels file's) has no time to compare: a dump's miss leaves it as it stands.
    const undated = stores('label-removed-undated');
    undated.entities.saveNames(new Map([['Q5', { label: 'human', aliases: [] }]]), 'file:labels.json');
    undated.entities.saveDatedNames([{ id: 'Q5', label: null, aliases: [], asOf: '2023-02-01T00:00:00Z' }], 'dump:b.xml');
    expect(label(undated.entities)).toBe('human');
  });
});
