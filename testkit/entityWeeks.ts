/**
 * Three weeks of Wikidata history (January 2023) made from the real entities of ../shared/data/wikidata
 * by the edits Wikidata sees every day, for tests, the sample and the README:
 *
 * - Bielefeld (Q2112): before the weeks, its latest population statement is missing and the one before
 *   it is preferred, and no mayor (P6) is preferred. Week 2: the latest population comes back as the new
 *   preferred statement and the current mayor becomes preferred (a rank change); then the population
 *   is vandalised and reverted within the hour. Week 3: the preferred population is corrected.
 * - Henning Christophersen (Q646148): before, his term as European Commissioner (P39) has no end.
 *   Week 1: its end time is added (world time only) and `politician` becomes his preferred occupation.
 * - Neihu District (Q271094): before, its latest population is missing. Week 1: it comes back as the
 *   new preferred statement. Week 3: the preferred population is corrected.
 *
 * Labels: the English labels and aliases of the properties and of some items the facts name, as
 * Wikidata has them, for `--labels`; the other items stay unresolved (they show what happens then).
 */
import { amountOf, byPointInTime, copyEntity, loadEntity, qualifierTime, type EntityJson, type EntityPage, type EntityRevision, type Statement } from './entityHistories.js';

export const ENTITY_WEEKS = ['2023-01-02', '2023-01-09', '2023-01-16'] as const;

/** Page ids of the three entities: their numeric ids, as on Wikidata they are not, but unique here. */
export const BIELEFELD = { pageId: 2112, id: 'Q2112' };
export const CHRISTOPHERSEN = { pageId: 646148, id: 'Q646148' };
export const NEIHU = { pageId: 271094, id: 'Q271094' };

function statements(entity: EntityJson, property: string): Statement[] {
  const list = entity.claims[property];
  if (!list) throw new Error(`${entity.id} has no ${property} statements`);
  return list;
}

function latestPopulation(entity: EntityJson): { latest: Statement; previous: Statement } {
  const series = byPointInTime(statements(entity, 'P1082'));
  const latest = series.at(-1);
  const previous = series.at(-2);
  if (!latest || !previous) throw new Error(`${entity.id} has fewer than two population statements`);
  return { latest, previous };
}

/** The entity with its latest population statement taken out and the one before it preferred. */
function withoutLatestPopulation(entity: EntityJson): EntityJson {
  const before = copyEntity(entity);
  const { latest, previous } = latestPopulation(before);
  before.claims['P1082'] = statements(before, 'P1082').filter((statement) => statement !== latest);
  for (const statement of statements(before, 'P1082')) statement.rank = statement === previous ? 'preferred' : statement.rank === 'preferred' ? 'normal' : statement.rank;
  return before;
}

function correctedPopulation(entity: EntityJson, by: number): EntityJson {
  const after = copyEntity(entity);
  const preferred = statements(after, 'P1082').find((statement) => statement.rank === 'preferred');
  if (!preferred) throw new Error(`${entity.id} has no preferred population`);
  const value = preferred.mainsnak.datavalue!.value as { amount: string };
  value.amount = `+${Number(amountOf(preferred)) + by}`;
  return after;
}

export function bielefeldHistory(dataDir: string): EntityPage {
  const real = loadEntity(dataDir, BIELEFELD.id);
  const before = withoutLatestPopulation(real);
  for (const statement of statements(before, 'P6')) statement.rank = 'normal';
  const newPreferred = copyEntity(real);
  const vandalised = copyEntity(newPreferred);
  const vandalisedValue = latestPopulation(vandalised).latest.mainsnak.datavalue!.value as { amount: string };
  vandalisedValue.amount = '+1';
  const revisions: EntityRevision[] = [
    { revId: 21120001, timestamp: '2022-12-28T10:00:00Z', comment: 'population of 2020', entity: before },
    { revId: 21120002, timestamp: '2023-01-10T12:00:00Z', comment: 'new preferred population; current mayor preferred', entity: newPreferred },
    { revId: 21120003, timestamp: '2023-01-11T08:00:00Z', comment: '', entity: vandalised },
    { revId: 21120004, timestamp: '2023-01-11T09:30:00Z', comment: 'Undid revision 21120003', entity: copyEntity(newPreferred) },
    { revId: 21120005, timestamp: '2023-01-17T10:00:00Z', comment: 'corrected population', entity: correctedPopulation(newPreferred, 7) },
  ];
  return { pageId: BIELEFELD.pageId, revisions };
}

export function christophersenHistory(dataDir: string): EntityPage {
  const real = loadEntity(dataDir, CHRISTOPHERSEN.id);
  const commissioner = (entity: EntityJson) => {
    const found = statements(entity, 'P39').find((statement) => qualifierTime(statement, 'P580')?.startsWith('+1985') && qualifierTime(statement, 'P582') !== undefined);
    if (!found) throw new Error('no term from 1985 with an end among the positions held');
    return found;
  };
  const openEnded = copyEntity(real);
  const term = commissioner(openEnded);
  const end = term.qualifiers!['P582']!;
  delete term.qualifiers!['P582'];
  term['qualifiers-order'] = term['qualifiers-order']?.filter((property) => property !== 'P582');
  for (const statement of statements(openEnded, 'P106')) statement.rank = 'normal';
  const ended = copyEntity(openEnded);
  const endedTerm = statements(ended, 'P39').find((statement) => statement.id === term.id)!;
  endedTerm.qualifiers!['P582'] = structuredClone(end);
  for (const statement of statements(ended, 'P106')) {
    const value = statement.mainsnak.datavalue?.value as { id?: string } | undefined;
    if (value?.id === 'Q82955') statement.rank = 'preferred';
  }
  return {
    pageId: CHRISTOPHERSEN.pageId,
    revisions: [
      { revId: 6461480001, timestamp: '2022-12-30T10:00:00Z', comment: 'positions held', entity: openEnded },
      { revId: 6461480002, timestamp: '2023-01-04T10:00:00Z', comment: 'end time of the term; preferred occupation', entity: ended },
    ],
  };
}

export function neihuHistory(dataDir: string): EntityPage {
  const real = loadEntity(dataDir, NEIHU.id);
  return {
    pageId: NEIHU.pageId,
    revisions: [
      { revId: 2710940001, timestamp: '2022-12-29T10:00:00Z', comment: 'population series', entity: withoutLatestPopulation(real) },
      { revId: 2710940002, timestamp: '2023-01-05T10:00:00Z', comment: 'new preferred population', entity: copyEntity(real) },
      { revId: 2710940003, timestamp: '2023-01-18T10:00:00Z', comment: 'corrected population', entity: correctedPopulation(real, -11) },
    ],
  };
}

export function entityWeeksPages(dataDir: string): EntityPage[] {
  return [bielefeldHistory(dataDir), neihuHistory(dataDir), christophersenHistory(dataDir)];
}

/**
 * A Neihu District history for benchmarks: `count` revisions, each adding the next statement of its
 * real population series (the last one preferred), with every other claim as it is.
 */
export function neihuSeriesHistory(dataDir: string, count: number): EntityPage {
  const real = loadEntity(dataDir, NEIHU.id);
  const series = byPointInTime(statements(real, 'P1082'));
  const revisions: EntityRevision[] = [];
  for (let n = 0; n < count; n++) {
    const entity = copyEntity(real);
    const shown = series.slice(0, 1 + (n % series.length)).map((statement): Statement => ({ ...structuredClone(statement), rank: 'normal' }));
    shown.at(-1)!.rank = 'preferred';
    entity.claims['P1082'] = shown;
    revisions.push({ revId: 3_000_000 + n, timestamp: new Date(Date.UTC(2023, 0, 1) + n * 3_600_000).toISOString().replace('.000Z', 'Z'), comment: 'population', entity });
  }
  return { pageId: NEIHU.pageId, revisions };
}

/** English labels and aliases, as Wikidata has them, of the properties the facts use and of some items they name. */
export const ENGLISH_NAMES: Readonly<Record<string, { label: string; aliases?: string[] }>> = {
  P6: { label: 'head of government', aliases: ['mayor'] },
  P17: { label: 'country' },
  P31: { label: 'instance of', aliases: ['is a'] },
  P39: { label: 'position held' },
  P106: { label: 'occupation', aliases: ['profession', 'job'] },
  P580: { label: 'start time' },
  P582: { label: 'end time' },
  P585: { label: 'point in time' },
  P1082: { label: 'population' },
  P2046: { label: 'area' },
  Q5: { label: 'human', aliases: ['person'] },
  Q183: { label: 'Germany', aliases: ['Federal Republic of Germany', 'FRG', 'DE'] },
  Q865: { label: 'Taiwan', aliases: ['Republic of China', 'ROC'] },
  Q82955: { label: 'politician' },
  // Christophersen's other occupations: the week that makes politician preferred answers them on its days before.
  Q188094: { label: 'economist' },
  Q193391: { label: 'diplomat' },
  Q1549591: { label: 'big city' },
};

/** Those names as a Wikidata JSON dump (`[`, an entity a line, `]`), as `--labels` reads it. */
export function labelsDump(names: Readonly<Record<string, { label: string; aliases?: string[] }>> = ENGLISH_NAMES): string {
  const lines = Object.entries(names).map(([id, name]) =>
    JSON.stringify({
      type: id.startsWith('P') ? 'property' : 'item',
      id,
      labels: { en: { language: 'en', value: name.label } },
      aliases: { en: (name.aliases ?? []).map((value) => ({ language: 'en', value })) },
      descriptions: {},
      claims: {},
    }),
  );
  return `[\n${lines.join(',\n')}\n]\n`;
}

/**
 * Pages of the entities `ids`, named as ENGLISH_NAMES names them and with no statements, edited only
 * at `timestamps`, oldest first: the last edit gives the name, the ones before it a former label.
 * Page ids are the entities' numbers, a property's past a billion.
 */
export function namedEntityPages(ids: readonly string[], timestamps: readonly string[]): EntityPage[] {
  return ids.map((id) => {
    const name = ENGLISH_NAMES[id];
    if (!name) throw new Error(`no English name for ${id}`);
    const number = Number(id.slice(1));
    const pageId = id.startsWith('P') ? 1_000_000_000 + number : number;
    const revisions = timestamps.map((timestamp, n): EntityRevision => {
      const label = n === timestamps.length - 1 ? name.label : `former ${name.label}`;
      const entity: EntityJson = {
        type: id.startsWith('P') ? 'property' : 'item',
        id,
        labels: { en: { language: 'en', value: label } },
        descriptions: {},
        aliases: { en: (name.aliases ?? []).map((value) => ({ language: 'en', value })) },
        claims: {},
      };
      return { revId: pageId * 10 + n, timestamp, comment: 'label', entity };
    });
    return { pageId, revisions };
  });
}
