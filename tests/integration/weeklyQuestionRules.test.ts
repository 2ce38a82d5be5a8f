/**
 * The generate stage holds every provider's questions to the question rules: an offline-style
 * provider that knows nothing of them gets its dated question stored as a failure with the reason,
 * and no query, while the others become queries.
 */
import { describe, expect, it } from 'vitest';
import { runWeekly } from '../../pipelines/weekly.js';
import { questionProblem } from '../../pipelines/weekly/questionRules.js';
import { SAMPLE_DUMP } from '../../src/cli/commands/demo.js';
import { windowFrom } from '../../src/dates.js';
import { OfflineWeeklyTasks } from '../../src/llm/offlineWeeklyTasks.js';
import type { ArticleContext } from '../../src/llm/weeklyTasks.js';
import { RecordingReporter } from '../../src/runs/progress.js';
import { DumpRevisionSource } from '../../src/sources/dumpSource.js';
import { Store } from '../../src/store/store.js';

/** The offline rules, except that the question about Brightwater Logistics names a year. */
class DatingTasks extends OfflineWeeklyTasks {
  override async generateQuestion(article: ArticleContext, target: { key: string; value: string }) {
    const result = await super.generateQuestion(article, target);
    if (!result.ok || article.title !== 'Brightwater Logistics') return result;
    return { ...result, value: { question: result.value.question.replace(/\?$/, ' as of 2025?') } };
  }
}

describe('the question rules in the generate stage', () => {
  it('reads a date restriction in any question as a problem, and nothing in a plain one', () => {
    expect(questionProblem('What is the total population of Port Aldwin as of 2024?')).toBe('the question must not contain a date restriction');
    expect(questionProblem('Who led Port Aldwin on 5 February 2025?')).toBe('the question must not contain a date restriction');
    expect(questionProblem('What is the total population of Port Aldwin?')).toBeNull();
    // The forms a model slipped past the first rule: a day without its year, an abbreviated month, relative times.
    for (const dated of [
      'What is the latest preview version of Quillstone released on 3 February?',
      'When did Oren Blake\'s term end, as of last week?',
      'What was the revenue of Brightwater Logistics at the end of 2024?',
      'Who led Port Aldwin on 5 Feb 2025?',
      'What was the population of Caldrossa in Feb. 2025?',
      'What is the population of Port Aldwin as at 2024?',
      'Who is the mayor of Port Aldwin as of today?',
      'Who coached the club on February 3?',
      'How many goals has Callum Everby scored this year?',
    ]) expect(questionProblem(dated), dated).toBe('the question must not contain a date restriction');
    // A year or a month inside a name, or a season, is no restriction.
    for (const plain of [
      'Who won the 2025 Port Aldwin mayoral election?',
      'What is the league result of 2024–25 Port Aldwin Rovers F.C. season?',
      'How many goals did the club score in the 2024–25 season?',
      'Who is the spouse of June Carter?',
      'What is the length of This Year?',
      'Who is the current chief executive of Brightwater Logistics?',
    ]) expect(questionProblem(plain), plain).toBeNull();
  });

  it('stores the dated question of a provider that ignores the rules as a failure with the reason, and makes no query of it', async () => {
    const store = Store.open(':memory:');
    const outcome = await runWeekly({
      store,
      input: {
        window: windowFrom('2025-02-03', 7),
        wiki: 'sample',
        source: new DumpRevisionSource(SAMPLE_DUMP),
        seed: 1,
        revertHours: 48,
        keepContent: false,
        articleBaseUrl: 'https://sample.wikidelta.invalid/wiki/',
        tasks: new DatingTasks(),
      },
      stages: ['collect', 'parse', 'diff', 'select', 'generate'],
      reporter: new RecordingReporter(),
      params: { test: 'question rules' },
    });
    expect(outcome.run.stages.find((stage) => stage.stage === 'generate')?.counts).toMatchObject({ data_units: 11, generated: 10, failed: 1 });
    const failures = store.db.prepare("SELECT query_id, target_key, reason FROM question_generations WHERE status = 'failed'").all();
    expect(failures).toEqual([{ query_id: '25020300-103-0', target_key: 'num_employees', reason: 'the question must not contain a date restriction' }]);
    const texts = store.db.prepare('SELECT text FROM queries').pluck().all() as string[];
    expect(texts).toHaveLength(10);
    expect(texts.filter((text) => text.includes('Brightwater Logistics'))).toEqual([]);
  });
});
