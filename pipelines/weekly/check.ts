import { answerContains } from '../../src/text/normalise.js';
import { withUsage } from '../../src/llm/usage.js';
import type { WeeklyTasks } from '../../src/llm/weeklyTasks.js';
import type { Stage } from '../../src/runs/stageRunner.js';
import { LocalSearchIndex } from '../../src/search/localIndex.js';
import type { SearchBackend } from '../../src/search/searchBackend.js';
import { sameTitle } from '../../src/text/titles.js';
import type { CheckResult, Question } from '../../src/model/questions.js';
import type { WeeklyInput } from './input.js';
import { articleOf, batches, failedForTheService, LLM_BATCH, settled, tasksFor } from './llmWork.js';
import { eventLoopTurns } from './yieldToEventLoop.js';

/** DailyQA looks at the first page of search results. */
const SEARCH_DEPTH = 10;

/**
 * check: correctness (the tasks' provider answers from title, first paragraph and infobox; the gold value
 * must occur in the normalised answer) and descriptiveness (a search for the question alone finds
 * the source page in the top 10). Results and reasons are stored; a failed question stays, not kept.
 * A search backend or LLM service that fails past its retries fails the stage once the batch's
 * other questions are stored, and a rerun resumes. Each question's work starts on a turn of the
 * event loop of its own: the offline tasks and the local index answer synchronously, and a stage
 * that never yields cannot be stopped by a signal (docs/ARCHITECTURE.md §9).
 */
export const checkStage: Stage<WeeklyInput> = {
  name: 'check',
  after: ['generate'],
  async run(input, context) {
    const tasks = tasksFor(input);
    const store = context.store.questions(input.wiki);
    // A check the service failed is no verdict: its question is checked again.
    const checked = context.redone ? new Set<string>() : new Set([...store.checkedReasons(input.window)].filter(([, reasons]) => !reasons.some(failedForTheService)).map(([id]) => id));
    const questions = store.questions(input.window).filter((question) => !checked.has(question.id));
    const search = input.search ?? LocalSearchIndex.fromStore(context.store, input.wiki, input.window);
    const pages = context.store.changes(input.wiki);
    const counts = { questions: questions.length + checked.size, already_done: checked.size, correct: 0, descriptive: 0 };
    const turn = eventLoopTurns();
    await withUsage(context, tasks, input.prices ?? {}, async () => {
      for (const batch of batches(questions, LLM_BATCH)) {
        const { results: pairs, failure } = await settled(batch, async (question) => {
          await turn();
          return [await correctness(tasks, question), await descriptiveness(search, question, pages.pageTitle(question.unit.pageId))];
        });
        const results = pairs.flat();
        store.saveChecks(results);
        counts.correct += results.filter((r) => r.check === 'correctness' && r.passed).length;
        counts.descriptive += results.filter((r) => r.check === 'descriptiveness' && r.passed).length;
        context.saveProgress({ counts });
        context.reporter.progress(counts.correct + counts.descriptive);
        if (failure) throw failure.error;
      }
    });
    return { ...counts, kept: store.refreshKept(input.window) };
  },
};

async function correctness(tasks: WeeklyTasks, question: Question): Promise<CheckResult> {
  const result = await tasks.answerQuestion(articleOf(question.unit), question.text);
  const base = { queryId: question.id, check: 'correctness' as const, backend: `${tasks.provider}:${tasks.model}`, prompt: result.prompt };
  if (!result.ok) return { ...base, passed: false, reason: `no answer: ${result.reason}`, detail: null };
  const passed = answerContains(result.value.answer, question.unit.new);
  return {
    ...base,
    passed,
    reason: passed ? 'the gold value occurs in the answer' : 'the gold value does not occur in the answer',
    detail: result.value.answer,
  };
}

/** The source page found by the question alone: by the title the question names, or its own (an entity's id, as Wikidata's search gives it). */
async function descriptiveness(search: SearchBackend, question: Question, pageTitle: string): Promise<CheckResult> {
  const titles = await search.topTitles(question.text, SEARCH_DEPTH);
  const rank = titles.findIndex((title) => sameTitle(title, question.unit.title) || sameTitle(title, pageTitle)) + 1;
  return {
    queryId: question.id,
    check: 'descriptiveness',
    passed: rank > 0,
    reason: rank > 0 ? `the source page is result ${rank} of ${titles.length}` : `the source page is not among the ${titles.length} results`,
    detail: JSON.stringify(titles),
    backend: search.name,
    prompt: null,
  };
}
