/**
 * The one handle on a wikidelta store for a session: the connection, one repository per aggregate
 * (docs/ARCHITECTURE.md §9) made the first time it is asked for and kept, so each statement is
 * prepared once per session, and the transaction that spans repositories. Stages get it in their
 * context and readers as an argument; nothing outside `src/store` needs better-sqlite3's `Database`.
 */
import type { Database } from 'better-sqlite3';
import { AuditStore } from './auditStore.js';
import { ChangeReads, ChangeStore } from './changeStore.js';
import { closeStore, holdsNothing, openDatabase, openStoreForReading, schemaVersion } from './database.js';
import { EmbeddingCache } from './embeddingCache.js';
import { EntityStore } from './entityStore.js';
import { GrowoverStore } from './growoverStore.js';
import { ResponseCache } from './llmCache.js';
import { LlmUsageStore } from './llmUsageStore.js';
import { QueryStore, QuestionStore } from './questionStore.js';
import { RecentChangesStore } from './recentChangesStore.js';
import { RevisionReads } from './revisionReads.js';
import { RevisionStore } from './revisionStore.js';
import { RunStore } from './runStore.js';
import { SnapshotStore } from './snapshotStore.js';
import { AnswerTimelines, TimelineStore } from './timelineStore.js';
import { WikiStore } from './wikiStore.js';

/**
 * A session's store: open it once (`Store.open`, or `Store.openForReading` for a command that only
 * reads), hand it to stages and readers, close it once.
 *
 * @example
 * const store = Store.open('data/wikidelta.db');
 * try {
 *   const run = store.runs.newestRun('weekly');
 *   store.transaction(() => {
 *     store.revisions('enwiki').savePart(part);
 *     store.entities.saveNames(names);
 *   });
 * } finally {
 *   store.close();
 * }
 */
export class Store {
  private runStore?: RunStore;
  private wikiStore?: WikiStore;
  private snapshotStore?: SnapshotStore;
  private growoverStore?: GrowoverStore;
  private entityStore?: EntityStore;
  private auditStore?: AuditStore;
  private embeddingCache?: EmbeddingCache;
  private responseCache?: ResponseCache;
  private usageStore?: LlmUsageStore;
  private queryStore?: QueryStore;
  private recentChangesStore?: RecentChangesStore;
  private revisionReads?: RevisionReads;
  private changeReads?: ChangeReads;
  private answerTimelines?: AnswerTimelines;
  private readonly revisionStores = new Map<string, RevisionStore>();
  private readonly changeStores = new Map<string, ChangeStore>();
  private readonly timelineStores = new Map<string, TimelineStore>();
  private readonly questionStores = new Map<string, QuestionStore>();

  /**
   * @param db the connection, already opened and migrated (`openDatabase`). Kept readable for tests
   * and maintenance scripts that look at the tables; the product's code outside `src/store` does not
   * use it (nothing checks that but review: `npm run check:layers` only forbids importing better-sqlite3,
   * its types included, outside the store).
   */
  private constructor(readonly db: Database) {}

  /**
   * Opens (creating if needed) the store at `path` for writing: WAL, foreign keys, pending
   * migrations applied; or, `readonly`, an existing store whose schema must be current.
   *
   * @param path the database file, or `:memory:`.
   * @param options `readonly`: open without writing.
   * @returns the session's Store; throws a UserError naming the file when it cannot be used.
   * @example const store = Store.open(':memory:');
   */
  static open(path: string, options: { readonly?: boolean } = {}): Store {
    return new Store(openDatabase(path, options));
  }

  /**
   * Opens a store for a command that only reads it: as a writer does when this process may
   * write it, read-only otherwise (`openStoreForReading`).
   *
   * @param path the database file, which must exist.
   * @returns the session's Store.
   */
  static openForReading(path: string): Store {
    return new Store(openStoreForReading(path));
  }

  /** The database file the store was opened from, as given (`:memory:` for one in memory): releases go beside it. */
  get path(): string {
    return this.db.name;
  }

  /**
   * The store's schema version: the newest migration applied, 0 for a store without any. A
   * release's manifest records it.
   *
   * @returns the version number.
   * @example Store.open(':memory:').schemaVersion() // the newest migration's number
   */
  schemaVersion(): number {
    return schemaVersion(this.db);
  }

  /** The wikis the store holds pages of and where each one's articles are (`wikis`). */
  get wikis(): WikiStore {
    return (this.wikiStore ??= new WikiStore(this.db));
  }

  /** Runs, their stages and failures (`runs`, `run_stages`, `run_failures`). */
  get runs(): RunStore {
    return (this.runStore ??= new RunStore(this.db));
  }

  /** Snapshots, their articles and sentences, and sentence labels. */
  get snapshots(): SnapshotStore {
    return (this.snapshotStore ??= new SnapshotStore(this.db));
  }

  /** GrowOVER items: QA pairs, dialogues, turns, evidence, rejects and the work done per page. */
  get growover(): GrowoverStore {
    return (this.growoverStore ??= new GrowoverStore(this.db));
  }

  /** Entity names, dated labels and time-qualified facts (docs/ARCHITECTURE.md §16). */
  get entities(): EntityStore {
    return (this.entityStore ??= new EntityStore(this.db));
  }

  /** Audits, their items, annotators, assignments, judgments and skips (§14). */
  get audits(): AuditStore {
    return (this.auditStore ??= new AuditStore(this.db));
  }

  /** Sentence vectors by embedder and text hash (§7.3). */
  get embeddings(): EmbeddingCache {
    return (this.embeddingCache ??= new EmbeddingCache(this.db));
  }

  /** LLM replies by request key (§6). */
  get llmCache(): ResponseCache {
    return (this.responseCache ??= new ResponseCache(this.db));
  }

  /** LLM tokens and cost per run and model (§6). */
  get llmUsage(): LlmUsageStore {
    return (this.usageStore ??= new LlmUsageStore(this.db));
  }

  /** Every stored query across wikis, generated or imported: weeks, update frequencies, imported intervals. */
  get queries(): QueryStore {
    return (this.queryStore ??= new QueryStore(this.db));
  }

  /** The API source's recent-changes spool (§3). */
  get recentChanges(): RecentChangesStore {
    return (this.recentChangesStore ??= new RecentChangesStore(this.db));
  }

  /** Reads of pages and revisions across wikis: titles, latest revisions, articles at a date. */
  get pages(): RevisionReads {
    return (this.revisionReads ??= new RevisionReads(this.db));
  }

  /** Key changes and data units across wikis, by window (`changes`, `stats`). */
  get changeLog(): ChangeReads {
    return (this.changeReads ??= new ChangeReads(this.db));
  }

  /** The reads behind answers for any date, across wikis (§5). */
  get answers(): AnswerTimelines {
    return (this.answerTimelines ??= new AnswerTimelines(this.db));
  }

  /**
   * One wiki's pages, revisions and parsed infoboxes: what collect and parse write.
   *
   * @param wiki the wiki's id (`enwiki`, a dump's origin).
   * @returns the wiki's one RevisionStore.
   */
  revisions(wiki: string): RevisionStore {
    return ofWiki(this.revisionStores, wiki, () => new RevisionStore(this.db, wiki));
  }

  /**
   * One wiki's key changes and data units: what diff and select write.
   *
   * @param wiki the wiki's id.
   * @returns the wiki's one ChangeStore.
   */
  changes(wiki: string): ChangeStore {
    return ofWiki(this.changeStores, wiki, () => new ChangeStore(this.db, wiki));
  }

  /**
   * One wiki's value intervals, page lifetimes and coverage: what the timeline stage writes.
   *
   * @param wiki the wiki's id.
   * @returns the wiki's one TimelineStore.
   */
  timelines(wiki: string): TimelineStore {
    return ofWiki(this.timelineStores, wiki, () => new TimelineStore(this.db, wiki));
  }

  /**
   * One wiki's generated questions, their checks and domains.
   *
   * @param wiki the wiki's id.
   * @returns the wiki's one QuestionStore.
   */
  questions(wiki: string): QuestionStore {
    return ofWiki(this.questionStores, wiki, () => new QuestionStore(this.db, wiki));
  }

  /**
   * Runs `fn` in one transaction: all its writes, across repositories, or none when it throws.
   * Nested calls become savepoints. `fn` must be synchronous (better-sqlite3's rule).
   *
   * @param fn the work; its result is returned.
   * @returns what `fn` returned.
   * @example store.transaction(() => { store.runs.saveCounts(id, 'parse', counts); store.entities.saveNames(names); });
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Closes the connection, leaving a store no one else has open in rollback-journal mode
   * (`closeStore`). The Store is unusable afterwards.
   */
  /** Whether nothing was ever written to the store (only its schema). */
  isEmpty(): boolean {
    return holdsNothing(this.db);
  }

  close(): void {
    closeStore(this.db);
  }
}

function ofWiki<T>(made: Map<string, T>, wiki: string, make: () => T): T {
  let repository = made.get(wiki);
  if (!repository) {
    repository = make();
    made.set(wiki, repository);
  }
  return repository;
}
