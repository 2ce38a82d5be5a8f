import type { Stage } from '../../src/runs/stageRunner.js';
import type { WeeklyInput } from '../weekly.js';
import { RevisionStore } from '../../src/store/revisionStore.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

const PARSE_BATCH = 200;

/** parse: stored wikitext → infoboxes (and first paragraphs inside the window), in batched transactions. */
export const parseStage: Stage<WeeklyInput> = {
  name: 'parse',
  after: ['collect'],
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
