/**
 * Entities and their names (docs/ARCHITECTURE.md §16): the entity each entity page is, the labels
 * cache of the entities facts name (filled from a labels file or wbgetentities), the stored facts'
 * references a week needs named, and the time-qualified statements of a page's latest revision.
 * Statements are prepared once per repository; rows come back parsed.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { DEFAULT_CONTENT_MODEL, TimedFactSchema, type DatedEntityName, type EntityName, type TimedFact, type Window } from '../model.js';
import { FieldsColumn, jsonColumn } from './rows.js';

const NameRow = z.object({ id: z.string(), label: z.string().nullable(), aliases: jsonColumn(z.array(z.string())) });
const EntityPageRow = z.object({ entityId: z.string(), label: z.string().nullable(), enwiki: z.string().nullable() });
const FieldsRow = z.object({ fields: FieldsColumn });
const MissRow = z.object({ id: z.string(), source: z.string() });
const TimedFacts = jsonColumn(z.array(TimedFactSchema));
const LatestTimedRow = z.object({ revId: z.number().int(), facts: TimedFacts });

/** Entities and their names: each entity page's entity, the labels cache, the references a week needs named, and a page's time-qualified statements. */
export class EntityStore {
  private readonly selectEntityPage;
  private readonly insertName;
  private readonly insertDatedName;
  private readonly selectWindowFacts;
  private readonly selectWindowTimed;
  private readonly selectLatestTimed;
  private readonly selectNames;
  private readonly selectUndatedMisses;

  constructor(private readonly db: Database) {
    // The ids come as one JSON array, so one prepared statement serves any number of them. The
    // winner comes last: the newest revision's name, a stored page's at a tie, its label null when
    // that revision has none; an undated name (a labels file's, wbgetentities') only when no page is the entity.
    this.selectNames = db.prepare(
      `WITH wanted AS (SELECT value AS id FROM json_each(?))
       SELECT id, label, aliases FROM (
         SELECT entity_id AS id, label, aliases, coalesce(as_of, '') AS asOf, 0 AS fromPage FROM entity_labels WHERE entity_id IN (SELECT id FROM wanted)
         UNION ALL
         SELECT id, label, aliases, as_of AS asOf, 1 AS fromPage FROM (
           SELECT entity_id AS id, label, aliases, as_of, ROW_NUMBER() OVER (PARTITION BY entity_id ORDER BY as_of DESC, wiki) AS n
           FROM entity_pages WHERE entity_id IN (SELECT id FROM wanted)) WHERE n = 1)
       ORDER BY asOf, fromPage`,
    );
    // Undated answers without an English label (a labels file's entity without one, an id wbgetentities
    // did not have), of entities no page or dump names: another source may still name them.
    this.selectUndatedMisses = db.prepare(
      `SELECT entity_id AS id, source FROM entity_labels
       WHERE entity_id IN (SELECT value FROM json_each(?)) AND label IS NULL AND as_of IS NULL
         AND entity_id NOT IN (SELECT entity_id FROM entity_pages)`,
    );
    this.selectEntityPage = db.prepare('SELECT entity_id AS entityId, label, enwiki FROM entity_pages WHERE wiki = ? AND page_id = ?');
    this.insertName = db.prepare(
      `INSERT INTO entity_labels (entity_id, label, aliases, source, as_of) VALUES (?, ?, ?, ?, NULL)
       ON CONFLICT (entity_id) DO UPDATE SET label = excluded.label, aliases = excluded.aliases, source = excluded.source, as_of = NULL`,
    );
    // A dump's name (or its lack of one) replaces an older dump's, and an undated miss (no source named
    // the entity then); a labels file's or wbgetentities' name stands as it did.
    this.insertDatedName = db.prepare(
      `INSERT INTO entity_labels (entity_id, label, aliases, source, as_of) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (entity_id) DO UPDATE SET label = excluded.label, aliases = excluded.aliases, source = excluded.source, as_of = excluded.as_of
       WHERE (entity_labels.label IS NULL AND entity_labels.as_of IS NULL) OR (entity_labels.as_of IS NOT NULL AND excluded.as_of > entity_labels.as_of)`,
    );
    // Every stored fact set of a revision of the window's pages whose content model is not wikitext
    // (only such models name entities by id), whatever the revision's time: timelines are rebuilt from
    // the whole stored history.
    this.selectWindowFacts = db.prepare(
      `SELECT i.fields FROM window_pages w
       JOIN revisions r ON r.wiki = w.wiki AND r.page_id = w.page_id AND r.content_model IS NOT NULL AND r.content_model <> @defaultModel
       JOIN infoboxes i ON i.wiki = r.wiki AND i.page_id = r.page_id AND i.rev_id = r.rev_id
       WHERE w.wiki = @wiki AND w.window_start = @start AND w.window_end = @end`,
    );
    this.selectWindowTimed = db.prepare(
      `SELECT t.facts FROM window_pages w JOIN timed_facts t ON t.wiki = w.wiki AND t.page_id = w.page_id
       WHERE w.wiki = @wiki AND w.window_start = @start AND w.window_end = @end`,
    );
    this.selectLatestTimed = db.prepare(
      `SELECT t.rev_id AS revId, t.facts FROM entity_pages e JOIN timed_facts t ON t.wiki = e.wiki AND t.page_id = e.page_id AND t.rev_id = e.rev_id
       WHERE e.wiki = ? AND e.page_id = ?`,
    );
  }

  /** The entity a page is, by its latest parsed revision; undefined for a page that is no entity. */
  entityPage(wiki: string, pageId: number): z.infer<typeof EntityPageRow> | undefined {
    const row = this.selectEntityPage.get(wiki, pageId);
    return row === undefined ? undefined : EntityPageRow.parse(row);
  }

  /**
   * The names the store knows of `ids`: of an entity page's own (its latest revision's label) and a
   * name the cache holds from a dump, the newer revision's; else the labels cache's. An id whose newest
   * revision has no label, or that the cache holds with none, maps to a name whose label is null.
   */
  names(ids: readonly string[]): Map<string, EntityName> {
    const names = new Map<string, EntityName>();
    if (ids.length === 0) return names;
    for (const raw of this.selectNames.all(JSON.stringify(ids))) {
      const row = NameRow.parse(raw);
      names.set(row.id, { label: row.label, aliases: row.aliases });
    }
    return names;
  }

  /**
   * Of `ids`, those a labels file or wbgetentities left without an English label and nothing else
   * names, by the source that said so: a source other than that one is asked about them again
   * (`--redo labels` with a better file), the same one never twice.
   */
  undatedMisses(ids: readonly string[]): Map<string, string> {
    const misses = new Map<string, string>();
    if (ids.length === 0) return misses;
    for (const raw of this.selectUndatedMisses.all(JSON.stringify(ids))) {
      const row = MissRow.parse(raw);
      misses.set(row.id, row.source);
    }
    return misses;
  }

  /** Writes names a source gave (null: the source has none) into the labels cache, in one transaction. */
  saveNames(names: ReadonlyMap<string, EntityName | null>, source: string): void {
    this.db.transaction(() => {
      for (const [id, name] of names) this.insertName.run(id, name?.label ?? null, JSON.stringify(name?.aliases ?? []), source);
    })();
  }

  /** Writes names read from a dump's entity pages (`source`: the dump) into the labels cache, in one transaction. */
  saveDatedNames(names: readonly DatedEntityName[], source: string): void {
    this.db.transaction(() => {
      for (const name of names) this.insertDatedName.run(name.id, name.label, JSON.stringify(name.aliases), source, name.asOf);
    })();
  }

  /** The stored facts of the window's pages' revisions of models other than wikitext, and their time-qualified statements, as [key, value]. */
  windowFacts(wiki: string, window: Window): Array<[string, string]> {
    const params = { wiki, start: window.start, end: window.end };
    const fields = this.selectWindowFacts.all({ ...params, defaultModel: DEFAULT_CONTENT_MODEL }).flatMap((row) => FieldsRow.parse(row).fields);
    const timed = this.selectWindowTimed.all(params).flatMap((row) => TimedFacts.parse((row as { facts: unknown }).facts).flatMap((fact): Array<[string, string]> => (fact.value === null ? [] : [[fact.key, fact.value]])));
    return [...fields, ...timed];
  }

  /** The time-qualified statements of the page's latest parsed revision; undefined for a page that is no entity. */
  latestTimedFacts(wiki: string, pageId: number): { revId: number; facts: TimedFact[] } | undefined {
    const row = this.selectLatestTimed.get(wiki, pageId);
    return row === undefined ? undefined : LatestTimedRow.parse(row);
  }
}
