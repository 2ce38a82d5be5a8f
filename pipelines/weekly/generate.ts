import type { Stage } from '../../src/runs/stageRunner.js';
import { withUsage } from '../../src/llm/usage.js';
import type { Generation } from '../../src/model/questions.js';
import { failed, ok } from '../../src/result.js';
import { queryIdFor } from '../../src/store/questionStore.js';
import type { WeeklyInput } from './input.js';
import { articleOf, batches, failedForTheService, LLM_BATCH, settled, tasksFor } from './llmWork.js';
import { questionProblem } from './questionRules.js';

/**
 * generate: one question per data unit of the window, whose answer is the unit's new value. A unit
 * whose question is already stored for the same revision and key, by the run's provider, model and
 * seed, is skipped, so a resumed run goes on where it stopped; `--redo generate` asks again for every
 * unit (the LLM layer's cache answers an unchanged prompt without a request). Every provider's
 * question must pass the question rules; a generation the model failed or a question that breaks
 * them is stored with its reason and makes no query. A
 * failure of the LLM service stores nothing for its unit and fails the stage once the batch's other
 * units are stored, so the next run asks for exactly the units it left.
 */
export const generateStage: Stage<WeeklyInput> = {
  name: 'generate',
  after: ['select'],
  async run(input, context) {
    const tasks = tasksFor(input);
    const store = context.store.questions(input.wiki);
    store.dropWithoutDataUnit(input.window);
    const units = context.store.changes(input.wiki)
      .dataUnitsIn(input.window)
      .filter((unit) => unit.windowStart === input.window.start && unit.windowEnd === input.window.end);
    // Made by another provider, model or seed, a question is another run's (one of the week with other
    // settings, whose redo of this stage was cut short): this run's are made again, never mixed with it.
    // Made for another value of the same change, it answers what the change no longer reads as (a collect
    // redone after an upgrade read the revision another way, docs/ARCHITECTURE.md §5): made again too.
    const made = (from: { revId: number; key: string; gold: string; provider: string; model: string; seed: string }) =>
      JSON.stringify([from.revId, from.key, from.gold, from.provider, from.model, from.seed]);
    const done = new Map(
      store
        .generatedFrom(input.window)
        .filter((generation) => !failedForTheService(generation.reason))
        .map((generation) => [generation.id, made(generation)]),
    );
    const mine = (unit: { revId: number; key: string; new: string }) => made({ ...unit, gold: unit.new, provider: tasks.provider, model: tasks.model, seed: String(input.seed) });
    const todo = context.redone ? units : units.filter((unit) => done.get(queryIdFor(input.window, unit.pageId)) !== mine(unit));
    const counts = { data_units: units.length, already_done: units.length - todo.length, generated: 0, failed: 0 };
    await withUsage(context, tasks, input.prices ?? {}, async () => {
      for (const batch of batches(todo, LLM_BATCH)) {
        const { results: generations, failure } = await settled(batch, async (unit): Promise<Generation> => {
          const result = await tasks.generateQuestion(articleOf(unit), { key: unit.key, value: unit.new }, questionProblem);
          const provenance = {
            prompt: result.prompt.name,
            promptVersion: result.prompt.version,
            provider: tasks.provider,
            model: tasks.model,
            seed: String(input.seed),
          };
          const queryId = queryIdFor(input.window, unit.pageId);
          if (!result.ok) return { unit, queryId, provenance, question: result };
          const question = result.value.question.replace(/\s+/g, ' ').trim();
          const problem = questionProblem(question);
          return { unit, queryId, provenance, question: problem === null ? ok(question) : failed(problem) };
        });
        store.saveGenerations(generations);
        counts.generated += generations.filter((g) => g.question.ok).length;
        counts.failed += generations.filter((g) => !g.question.ok).length;
        context.saveProgress({ counts });
        context.reporter.progress(counts.generated + counts.failed);
        if (failure) throw failure.error;
      }
    });
    return counts;
  },
};
