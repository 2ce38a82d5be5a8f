import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import type { Reporter } from '../../src/runs/progress.js';
import { inWindow } from '../../src/dates.js';
import { parseRevisionsJob, type ParseBatch } from '../../src/queue/parseJob.js';
import type { ParseCursor, UnparsedRevision } from '../../src/store/revisionStore.js';
import { batchRunnerFor, runSlices } from './batchRunner.js';
import { reportWikidataDriven } from './wikidataDriven.js';

/** Revisions read from the store at a time: at most this many, and no more once their texts reach this many characters. */
const PARSE_SLICE = { maxRevisions: 400, maxChars: 16 << 20 };
/** A batch (a queue job) of a slice: a few seconds of parsing, so workers share a slice evenly. */
const PARSE_JOB = { maxRevisions: 25, maxChars: 2 << 20 };

/**
 * What parsing could not read, warned of as it comes and counted for the stage's line: each infobox
 * value the size cap left out, and each revision whose content could not be read at all (kept as
 * metadata, its content unknown).
 */
export class UnreadContent {
  private leftOut = 0;
  private unreadable = 0;

  constructor(private readonly reporter: Reporter) {}

  add(revisions: ReadonlyArray<{ pageId: number; revId: number; leftOut: readonly string[]; unreadable?: string }>): void {
    for (const revision of revisions) {
      for (const what of revision.leftOut) this.reporter.warn(`left out: ${what}`, { page_id: revision.pageId, rev_id: revision.revId });
      this.leftOut += revision.leftOut.length;
      if (revision.unreadable === undefined) continue;
      this.reporter.warn(`unreadable content, kept as metadata: ${revision.unreadable}`, { page_id: revision.pageId, rev_id: revision.revId });
      this.unreadable++;
    }
  }

  /** The counts for the stage's line, those above zero. */
  counts(): { left_out?: number; unreadable?: number } {
    return { ...(this.leftOut > 0 ? { left_out: this.leftOut } : {}), ...(this.unreadable > 0 ? { unreadable: this.unreadable } : {}) };
  }
}

/** Cuts revisions (a slice, or a part being collected) into consecutive batches within PARSE_JOB's limits. */
export function parseBatches(slice: readonly UnparsedRevision[], window: WeeklyInput['window']): ParseBatch[] {
  const batches: ParseBatch[] = [];
  let current: ParseBatch['revisions'] = [];
  let chars = 0;
  for (const revision of slice) {
    current.push({ ...revision, firstParagraph: inWindow(revision.timestamp, window) });
    chars += revision.text?.length ?? 0;
    if (current.length >= PARSE_JOB.maxRevisions || chars >= PARSE_JOB.maxChars) {
      batches.push({ revisions: current });
      current = [];
      chars = 0;
    }
  }
  if (current.length > 0) batches.push({ revisions: current });
  return batches;
}

/**
 * parse: stored wikitext → infoboxes (and first paragraphs inside the window), slices bounded by
 * text size (two under way at once), cut into batches that run here or on the queue's workers (docs/ARCHITECTURE.md
 * §13), each batch's results written in one transaction by this process; then the space of the
 * dropped texts goes back to the disk.
 */
export const parseStage: Stage<WeeklyInput> = {
  name: 'parse',
  after: ['collect'],
  async run(input, context) {
    const store = context.store.revisions(input.wiki);
    const runner = batchRunnerFor(input);
    const counts = { revisions: 0, infoboxes: 0 };
    const unread = new UnreadContent(context.reporter);
    let cursor: ParseCursor | null = null;
    await runSlices(() => {
      const slice = store.unparsedBatch(cursor, PARSE_SLICE);
      const last = slice.at(-1);
      if (!last) return null;
      cursor = { pageId: last.pageId, revId: last.revId };
      return runner.run(parseRevisionsJob, parseBatches(slice, input.window), (parsed) => {
        store.saveParsed(parsed.revisions, input.keepContent);
        counts.revisions += parsed.revisions.length;
        counts.infoboxes += parsed.revisions.reduce((sum, revision) => sum + revision.infoboxes.length, 0);
        unread.add(parsed.revisions);
        context.saveProgress({ counts });
        context.reporter.progress(counts.revisions);
      });
    });
    store.reclaimFreeSpace();
    return { ...counts, ...unread.counts(), ...reportWikidataDriven(store, input.window, context.reporter) };
  },
};
