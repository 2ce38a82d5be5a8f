import type { Database } from 'better-sqlite3';
import { diffInfoboxes, templateLabels } from '../src/diff/infoboxDiff.js';
import { findReverts } from '../src/diff/reverts.js';
import { UserError } from '../src/errors.js';
import type { ParsedRevision, Window } from '../src/model.js';
import type { Reporter } from '../src/runs/progress.js';
import { runPipeline, type PipelineOutcome, type Stage } from '../src/runs/stageRunner.js';
import { filterReason } from '../src/select/changeFilters.js';
import { selectDataUnits } from '../src/select/dataUnits.js';
import type { RevisionSource } from '../src/sources/RevisionSource.js';
import { ChangeStore, type DataUnit } from '../src/store/changeStore.js';
import { RevisionStore } from '../src/store/revisionStore.js';

export interface WeeklyInput {
  window: Window;
  wiki: string;
  /** Needed by the collect stage only. */
  source: RevisionSource | null;
  seed: number;
  revertHours: number;
  keepContent: boolean;
  articleBaseUrl: string;
  parse: (wikitext: string, options: { firstParagraph: boolean }) => ParsedRevision;
}

export const WEEKLY_STAGES = ['collect', 'parse', 'diff', 'select'] as const;

const PARSE_BATCH = 200;
const DIFF_BATCH_PAGES = 100;

/** collect: every changed page's revisions for the window, one transaction per page. */
const collect: Stage<WeeklyInput> = {
  name: 'collect',
  async run(input, context) {
    if (!input.source) throw new UserError('the collect stage needs a source: give --api URL or --dump PATH');
    const store = new RevisionStore(context.db, input.wiki);
    const counts = { pages: 0, revisions: 0, skipped_pages: 0 };
    const histories = input.source.pagesChangedIn(input.window, {
      isDone: (pageId) => {
        const done = store.isPageDone(input.window, pageId);
        if (done) counts.skipped_pages++;
        return done;
      },
      followHours: input.revertHours,
    });
    for await (const history of histories) {
      store.savePageHistory(input.window, history);
      counts.pages++;
      counts.revisions += history.revisions.length;
      context.saveProgress({ cursor: String(history.page.pageId), counts });
      context.reporter.progress(counts.pages);
    }
    return counts;
  },
};

/** parse: stored wikitext → infoboxes (and first paragraphs inside the window), in batched transactions. */
const parse: Stage<WeeklyInput> = {
  name: 'parse',
  async run(input, context) {
    const store = new RevisionStore(context.db, input.wiki);
    const counts = { revisions: 0, infoboxes: 0 };
    for (;;) {
      const batch = store.unparsedBatch(PARSE_BATCH);
      if (batch.length === 0) break;
      const results = batch.map((revision) => {
        const inWindow = revision.timestamp >= input.window.start && revision.timestamp < input.window.end;
        const parsed = revision.text === null ? { infoboxes: [], firstParagraph: '' } : input.parse(revision.text, { firstParagraph: inWindow });
        counts.infoboxes += parsed.infoboxes.length;
        return { revId: revision.revId, infoboxes: parsed.infoboxes, firstParagraph: inWindow ? parsed.firstParagraph : null };
      });
      store.saveParsed(results, input.keepContent);
      counts.revisions += batch.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.revisions);
      await yieldToEventLoop();
    }
    return counts;
  },
};

/** diff: key-level changes of every in-window revision against its predecessor, with filter and revert marks. */
const diff: Stage<WeeklyInput> = {
  name: 'diff',
  async run(input, context) {
    const store = new ChangeStore(context.db, input.wiki);
    const pageIds = store.windowPageIds(input.window);
    const counts = { pages: 0, revisions: 0, changes: 0, filtered: 0, reverted: 0 };
    for (let offset = 0; offset < pageIds.length; offset += DIFF_BATCH_PAGES) {
      const pages = pageIds.slice(offset, offset + DIFF_BATCH_PAGES).map((pageId) => {
        const revisions = store.pageRevisions(pageId);
        const revertedBy = findReverts(revisions, input.revertHours);
        const withText = revisions.filter((revision) => !revision.metadataOnly);
        const diffs = [];
        for (let i = 1; i < withText.length; i++) {
          const previous = withText[i - 1]!;
          const current = withText[i]!;
          if (current.timestamp < input.window.start || current.timestamp >= input.window.end) continue;
          const changes = diffInfoboxes(store.infoboxes(previous.revId), store.infoboxes(current.revId)).map((change) => ({
            ...change,
            filtered: filterReason(change),
            revertedBy: revertedBy.get(current.revId) ?? null,
          }));
          counts.revisions++;
          counts.changes += changes.length;
          counts.filtered += changes.filter((c) => c.filtered).length;
          counts.reverted += changes.filter((c) => c.revertedBy !== null).length;
          diffs.push({ revId: current.revId, prevRevId: previous.revId, timestamp: current.timestamp, changes });
        }
        return { pageId, revisions: diffs };
      });
      store.saveChanges(pages);
      counts.pages += pages.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.pages, pageIds.length);
      await yieldToEventLoop();
    }
    return counts;
  },
};

/** select: the week's DailyQA data units, replaced as a whole so a rerun gives the same set. */
const select: Stage<WeeklyInput> = {
  name: 'select',
  async run(input, context) {
    const store = new ChangeStore(context.db, input.wiki);
    const candidates = store.changesIn(input.window, { onlyCandidates: true }).filter((change) => change.revertedBy === null);
    const chosen = selectDataUnits(candidates, input.seed);
    const units: DataUnit[] = chosen.map((change) => {
      const infoboxes = store.infoboxes(change.revId);
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

export const weeklyStages: ReadonlyArray<Stage<WeeklyInput>> = [collect, parse, diff, select];

export function articleUrl(base: string, title: string): string {
  return `${base}${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}

/** Runs the weekly pipeline's chosen stages under one resumable run record. */
export function runWeekly(options: {
  db: Database;
  input: WeeklyInput;
  stages: readonly string[];
  reporter: Reporter;
  params: Record<string, unknown>;
}): Promise<PipelineOutcome> {
  const unknown = options.stages.filter((stage) => !weeklyStages.some((s) => s.name === stage));
  if (unknown.length > 0) {
    throw new UserError(`unknown stage "${unknown.join('", "')}": the weekly stages are ${weeklyStages.map((s) => s.name).join(', ')}`);
  }
  return runPipeline({
    db: options.db,
    pipeline: 'weekly',
    params: options.params,
    stages: weeklyStages,
    selected: options.stages,
    input: options.input,
    reporter: options.reporter,
  });
}

/** Lets the progress bar and signals through during long synchronous batches. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
