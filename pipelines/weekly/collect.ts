import type { Stage, StageContext } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { UserError } from '../../src/errors.js';
import type { DatedEntityName, PageRef } from '../../src/model.js';
import { DumpFilesSource } from '../../src/sources/dumpFiles.js';
import type { RevisionSource } from '../../src/sources/RevisionSource.js';
import { NAMES_PER_WRITE } from '../../src/sources/entityNames.js';
import { EntityStore } from '../../src/store/entityStore.js';
import { batchRunnerFor } from './batchRunner.js';
import { ParsingPartWriter, StoringPartWriter } from './partWriters.js';
import { UnreadContent } from './parse.js';
import { readDumpFiles } from './readDumpFiles.js';

/**
 * collect: every changed page's revisions for the window, a part per transaction and the page
 * marked done with its last part (docs/ARCHITECTURE.md §4), so memory stays bounded on any window.
 * Without the queue each part is parsed on the batch threads as it comes and written parsed
 * (partWriters.ts); several dump files with `--queue` are read on the workers, each page parsed
 * there too and written parsed (docs/ARCHITECTURE.md §13), unless the texts are to be kept. Either
 * way the parse stage then finds nothing left to parse. The English names of the entity pages a dump
 * holds but the window does not take go into the labels cache as they come (docs/ARCHITECTURE.md §16).
 */
export const collectStage: Stage<WeeklyInput> = {
  name: 'collect',
  async run(input, context) {
    if (!input.source) throw new UserError('E_FLAG_MISSING', 'the collect stage needs a source: give --api URL or --dump PATH');
    if (input.nameWiki) await nameRun(input, input.nameWiki, context);
    // Where the wiki's articles are, for the stages a later run gives no source (docs/ARCHITECTURE.md §3).
    context.store.wikis.recordArticleBase(input.wiki, input.articleBaseUrl);
    const store = context.store.revisions(input.wiki);
    // --redo collect reads every page again, not only those a stopped collect left (docs/ARCHITECTURE.md §9).
    if (context.redone) store.reopenWindow(input.window);
    const counts = { pages: 0, revisions: 0, skipped_pages: 0, invalid_utf8_pages: 0 };
    const isDone = (pageId: number) => {
      if (input.onlyPages && !input.onlyPages.has(pageId)) return true;
      const done = store.isPageDone(input.window, pageId);
      if (done) counts.skipped_pages++;
      return done;
    };
    const pageCollected = (page: PageRef, invalidUtf8 = 0) => {
      if (invalidUtf8 > 0) {
        counts.invalid_utf8_pages++;
        context.reporter.warn('invalid UTF-8 in the dump, replaced by U+FFFD', { page: page.title, page_id: page.pageId, sequences: invalidUtf8 });
      }
      counts.pages++;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages);
    };
    const names = new EntityNameBatches(context.store.entities, input.source.origin);
    // A sync follows its tracked pages into a redirect: the revision that made one ends its values.
    const keepRedirects = input.onlyPages !== undefined;
    const onWorkers = dumpFilesForWorkers(input, input.source);
    if (onWorkers) {
      let infoboxes = 0;
      const unread = new UnreadContent(context.reporter);
      await readDumpFiles(onWorkers.runner, onWorkers.files, { window: input.window, followHours: input.revertHours, keepRedirects }, (pages, found) => {
        for (const name of found) names.add(name);
        for (const page of pages) {
          if (isDone(page.page.pageId)) continue;
          const metadata = (revision: (typeof page.followers)[number]) => ({ ...revision, text: null });
          store.saveParsedPage(input.window, page.page, page.revisions, {
            moves: page.moves,
            predecessors: page.predecessors.map(metadata),
            followers: page.followers.map(metadata),
          });
          counts.revisions += page.revisions.length;
          infoboxes += page.revisions.reduce((sum, revision) => sum + revision.infoboxes.length, 0);
          unread.add(page.revisions.map((revision) => ({ ...revision, pageId: page.page.pageId })));
          pageCollected(page.page, page.invalidUtf8);
        }
      });
      names.flush();
      return { ...counts, infoboxes, ...unread.counts(), ...names.counts() };
    }
    const parts = input.source.pagesChangedIn(input.window, {
      isDone,
      followHours: input.revertHours,
      keepRedirects,
      recentChanges: context.store.recentChanges,
      onEntityName: (name) => names.add(name),
    });
    // Without the queue the texts are parsed as they come (partWriters.ts); the queue's workers get them from the parse stage.
    const writer = input.batchRunner
      ? new StoringPartWriter(store, input.window)
      : new ParsingPartWriter(store, batchRunnerFor(input), { window: input.window, keepContent: input.keepContent });
    let infoboxes = 0;
    const unread = new UnreadContent(context.reporter);
    await writer.write(parts, (part, parsed) => {
      infoboxes += parsed.reduce((sum, revision) => sum + revision.infoboxes.length, 0);
      unread.add(parsed);
      if (part.kind === 'revisions') counts.revisions += part.revisions.length;
      else pageCollected(part.page, part.invalidUtf8);
    });
    names.flush();
    if (input.batchRunner) return { ...counts, ...names.counts() };
    return { ...counts, infoboxes, ...unread.counts(), ...names.counts() };
  },
};

/**
 * Names a run begun before its source said which wiki it is (`WeeklyInput.nameWiki`), before anything
 * is written: the run's parameters, and the input the later stages read, take the wiki it gives. A
 * refusal (a `<dbname>` that is no wiki name, a head that is no dump) fails the run with nothing
 * written. docs/ARCHITECTURE.md §3
 */
async function nameRun(input: WeeklyInput, nameWiki: NonNullable<WeeklyInput['nameWiki']>, context: StageContext): Promise<void> {
  const named = await nameWiki();
  input.wiki = named.wiki;
  input.articleBaseUrl = named.articleBaseUrl;
  context.store.runs.nameWiki(context.runId, named.wiki);
  context.reporter.event('the source names its wiki', { wiki: named.wiki, articles: named.articleBaseUrl });
}

/** The names a dump's entity pages give, written to the labels cache a batch at a time, as the source reads them. */
class EntityNameBatches {
  private batch: DatedEntityName[] = [];
  private written = 0;

  constructor(
    private readonly store: EntityStore,
    private readonly source: string,
  ) {}

  add(name: DatedEntityName): void {
    this.batch.push(name);
    if (this.batch.length >= NAMES_PER_WRITE) this.flush();
  }

  flush(): void {
    if (this.batch.length === 0) return;
    this.store.saveDatedNames(this.batch, this.source);
    this.written += this.batch.length;
    this.batch = [];
  }

  /** The stage's count of names kept; none for a source that gave none (a wikitext dump, the API). */
  counts(): { entity_names?: number } {
    return this.written > 0 ? { entity_names: this.written } : {};
  }
}

/**
 * The files to read on the queue's workers: several dump files and a queue given. Not when the
 * store keeps the texts: the workers would send every text back, so this process reads the files.
 */
function dumpFilesForWorkers(input: WeeklyInput, source: RevisionSource): { files: readonly string[]; runner: NonNullable<WeeklyInput['batchRunner']> } | null {
  if (!input.batchRunner || !(source instanceof DumpFilesSource) || input.keepContent) return null;
  return { files: source.paths, runner: input.batchRunner };
}

/**
 * Where the source's history ends when that is before the window's end: a dump made earlier holds no
 * revision after its newest (`RevisionSource.historyEnd`; null: it holds none), and vouches for no
 * later instant. Undefined when the source covers the window (the API holds every revision up to now).
 */
export function historyEndInWindow(input: Pick<WeeklyInput, 'source' | 'window'>): { newest: string | null } | undefined {
  const newest = input.source?.historyEnd?.();
  if (newest === undefined || (newest !== null && newest >= input.window.end)) return undefined;
  return { newest };
}
