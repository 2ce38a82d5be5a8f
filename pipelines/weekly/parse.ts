import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from './input.js';
import { RevisionStore, type ParseCursor } from '../../src/store/revisionStore.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

/** A batch holds at most this many revisions, and stops growing once its texts reach this many characters. */
const PARSE_BATCH = { maxRevisions: 200, maxChars: 16 << 20 };

/**
 * parse: stored wikitext → infoboxes (and first paragraphs inside the window), in batched
 * transactions bounded by text size; then the space of the dropped texts goes back to the disk.
 */
export const parseStage: Stage<WeeklyInput> = {
  name: 'parse',
  after: ['collect'],
  async run(input, context) {
    const store = new RevisionStore(context.db, input.wiki);
    const counts = { revisions: 0, infoboxes: 0 };
    let cursor: ParseCursor | null = null;
    for (;;) {
      const batch = store.unparsedBatch(cursor, PARSE_BATCH);
      const last = batch.at(-1);
      if (!last) break;
      const results = batch.map((revision) => {
        const inWindow = revision.timestamp >= input.window.start && revision.timestamp < input.window.end;
        const parsed = revision.text === null ? { infoboxes: [], firstParagraph: '' } : input.parse(revision.text, { firstParagraph: inWindow });
        counts.infoboxes += parsed.infoboxes.length;
        return { pageId: revision.pageId, revId: revision.revId, infoboxes: parsed.infoboxes, firstParagraph: inWindow ? parsed.firstParagraph : null };
      });
      store.saveParsed(results, input.keepContent);
      cursor = { pageId: last.pageId, revId: last.revId };
      counts.revisions += batch.length;
      context.saveProgress({ counts });
      context.reporter.progress(counts.revisions);
      await yieldToEventLoop();
    }
    store.reclaimFreeSpace();
    return counts;
  },
};
