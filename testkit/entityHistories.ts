/**
 * Wikidata history dumps built from the real entities of ../shared/data/wikidata by editing their
 * claims (rank changes, a new preferred statement, an end time added, a value changed and reverted),
 * for tests and benchmarks: one `<page>` per entity, `<model>wikibase-item</model>`, the entity's
 * JSON as each revision's text, as a wikidatawiki pages-meta-history dump has them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An entity as wbgetentities and the JSON dumps write it; claims are edited in place by the edits below. */
export type EntityJson = Record<string, unknown> & {
  id: string;
  claims: Record<string, Statement[]>;
};

export interface Statement {
  id: string;
  rank: 'preferred' | 'normal' | 'deprecated';
  mainsnak: { snaktype: string; property: string; datavalue?: { type: string; value: unknown } };
  qualifiers?: Record<string, Array<{ snaktype: string; property: string; datavalue?: { type: string; value: unknown } }>>;
  'qualifiers-order'?: string[];
}

export interface EntityRevision {
  revId: number;
  timestamp: string;
  comment: string;
  entity: EntityJson;
  /** The stored text when it is not the entity's JSON: a revision broken on purpose. */
  text?: string;
}

export interface EntityPage {
  pageId: number;
  revisions: EntityRevision[];
  /** The item this one is a redirect to now (merged into it): the dump's page says so. */
  redirect?: string;
}

export function loadEntity(dataDir: string, id: string): EntityJson {
  return JSON.parse(readFileSync(join(dataDir, 'wikidata', `${id}.json`), 'utf8')) as EntityJson;
}

/** A deep copy, so that an edit never changes an earlier revision. */
export function copyEntity(entity: EntityJson): EntityJson {
  return structuredClone(entity);
}

/** The time a statement's qualifier names (P580, P582, P585), as Wikidata writes it (`+2011-12-31T00:00:00Z`). */
export function qualifierTime(statement: Statement, property: string): string | undefined {
  const value = statement.qualifiers?.[property]?.[0]?.datavalue?.value as { time?: string } | undefined;
  return value?.time;
}

/** The statements of a property by their point in time (P585), oldest first. */
export function byPointInTime(statements: readonly Statement[]): Statement[] {
  return [...statements].sort((a, b) => (qualifierTime(a, 'P585') ?? '').localeCompare(qualifierTime(b, 'P585') ?? ''));
}

/** The amount of a quantity statement, as Wikidata writes it (`+334002`). */
export function amountOf(statement: Statement): string {
  return (statement.mainsnak.datavalue?.value as { amount: string }).amount;
}

/** The revision text: the entity as Wikidata stores it (compact JSON). */
export function entityText(entity: EntityJson): string {
  return JSON.stringify(entity);
}

/**
 * A pages-meta-history XML dump (schema 0.11) of these entity pages: items in the main namespace,
 * properties as Wikidata has them (`Property:P31`, namespace 120, model `wikibase-property`) unless
 * `propertiesAsItems` (for a test wiki that holds every entity as a main-namespace page).
 */
export function entityHistoryDump(pages: readonly EntityPage[], { propertiesAsItems = false } = {}): string {
  const body = pages
    .map((page) => {
      const id = page.revisions[0]?.entity.id ?? String(page.pageId);
      const property = !propertiesAsItems && id.startsWith('P');
      let parentId: number | null = null;
      const revisions = page.revisions.map((revision) => {
        const text = revision.text ?? entityText(revision.entity);
        const xml = `    <revision>
      <id>${revision.revId}</id>
${parentId === null ? '' : `      <parentid>${parentId}</parentid>\n`}      <timestamp>${revision.timestamp}</timestamp>
      <contributor><username>Wikidata editor</username><id>1</id></contributor>
      <comment>${escapeXml(revision.comment)}</comment>
      <model>${property ? 'wikibase-property' : 'wikibase-item'}</model>
      <format>application/json</format>
      <text bytes="${Buffer.byteLength(text)}" xml:space="preserve">${escapeXml(text)}</text>
      <sha1>${sha1Base36(text)}</sha1>
    </revision>`;
        parentId = revision.revId;
        return xml;
      });
      return `  <page>
    <title>${property ? `Property:${id}` : id}</title>
    <ns>${property ? 120 : 0}</ns>
    <id>${page.pageId}</id>
${page.redirect === undefined ? '' : `    <redirect title="${page.redirect}" />\n`}${revisions.join('\n')}
  </page>`;
    })
    .join('\n');
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Wikidata</sitename>
    <dbname>wikidatawiki</dbname>
    <base>https://www.wikidata.org/wiki/Wikidata:Main_Page</base>
    <namespaces><namespace key="0" case="first-letter" /><namespace key="120" case="first-letter">Property</namespace></namespaces>
  </siteinfo>
${body}
</mediawiki>
`;
}

function sha1Base36(text: string): string {
  return BigInt(`0x${createHash('sha1').update(text).digest('hex')}`).toString(36).padStart(31, '0');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
