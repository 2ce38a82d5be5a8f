import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capPerDomain } from '../../../pipelines/weekly/classify.js';
import { domainOfTemplate } from '../../../src/llm/domains.js';
import { keyLabel } from '../../../src/llm/keyLabels.js';
import { OfflineWeeklyTasks, templateQuestion } from '../../../src/llm/offlineWeeklyTasks.js';
import { formatInstructions, parseReply } from '../../../src/llm/outputModes.js';
import { loadPrompt, parsePrompt, PROMPTS_DIR, renderPrompt } from '../../../src/llm/prompts.js';
import { queryIdFor } from '../../../src/store/questionStore.js';
import { chosenProvider, SessionTasks } from '../../../src/llm/openTasks.js';
import { costOf, formatRunUsage, recordUsage, runUsage } from '../../../src/llm/usage.js';
import { loadSettings } from '../../../src/settings.js';
import { Store } from '../../../src/store/store.js';
import { withCode } from '../../support/errorCodes.js';

describe('prompt templates', () => {
  const names = readdirSync(PROMPTS_DIR).map((file) => file.replace(/\.txt$/, ''));

  it('has every task of the weekly and monthly pipelines and the baselines, each with a valid header', () => {
    expect(names.sort()).toEqual([
      'baseline-closed-book', 'baseline-with-document', 'correctness-answer', 'dialogue', 'domain-classification', 'growover-qa-changed',
      'growover-qa-initial', 'growover-qa-new', 'prediction-judge', 'question-generation', 'sentence-change',
    ]);
    for (const name of names) expect(loadPrompt(name)).toMatchObject({ name, version: expect.stringMatching(/^\d+$/), maxTokens: expect.any(Number) });
    expect(loadPrompt('question-generation').placeholders).toEqual(['title', 'url', 'first_paragraph', 'template', 'infobox', 'key', 'value']);
  });

  it('rejects a bad header and a render with missing or unexpected variables', () => {
    expect(() => parsePrompt('name: x\nversion: one\ndescription: d\n---\ntext', 'p')).toThrow(withCode('E_PROMPT_INVALID', /header version: a whole number/));
    expect(() => parsePrompt('name: x\nversion: 1\nmax_tokens: 50\n---\ntext', 'p')).toThrow(withCode('E_PROMPT_INVALID', /header description/));
    expect(() => parsePrompt('name: x\nversion: 1\ndescription: d\n---\ntext', 'p')).toThrow(withCode('E_PROMPT_INVALID', /header max_tokens/));
    expect(() => parsePrompt('just text', 'p')).toThrow(withCode('E_PROMPT_INVALID'));
    const template = parsePrompt('name: x\nversion: 2\ndescription: d\nmax_tokens: 50\n---\nHello {{who}} and {{who}}', 'p');
    expect(renderPrompt(template, { who: 'you' })).toBe('Hello you and you');
    expect(() => renderPrompt(template, {})).toThrow(/missing \{who\}/);
    expect(() => renderPrompt(template, { who: 'a', extra: 'b' })).toThrow(/unexpected \{extra\}/);
  });
});

describe('reply formats', () => {
  const schema = z.object({ answer: z.string().min(1), domain: z.enum(['Others', 'Politics and Law']) });
  const fields = ['answer', 'domain'];

  it('reads JSON, JSON in a code fence, and FIELD: value lines into the same validated object', () => {
    const expected = { ok: true, value: { answer: '418,950', domain: 'Others' } };
    expect(parseReply('json_schema', '{"answer":"418,950","domain":"Others"}', schema, fields)).toEqual(expected);
    expect(parseReply('json_object', '```json\n{"answer":"418,950","domain":"Others"}\n```', schema, fields)).toEqual(expected);
    expect(parseReply('text', 'Here you go.\nANSWER: 418,950\n**Domain**: Others\n', schema, fields)).toEqual(expected);
  });

  it('reports what is wrong instead of throwing, and never evaluates the reply', () => {
    expect(parseReply('json_object', '{answer: process.exit(1)}', schema, fields)).toMatchObject({ ok: false, reason: /^reply is not JSON/ });
    expect(parseReply('json_schema', '{"answer":"x","domain":"Sports"}', schema, fields)).toMatchObject({ ok: false, reason: /does not match the schema \(domain: / });
    expect(parseReply('text', 'ANSWER: x', schema, fields)).toMatchObject({ ok: false, reason: /domain/ });
    expect(parseReply('json_schema', '', schema, fields)).toEqual({ ok: false, reason: 'empty reply' });
  });

  it('spells the schema out in the prompt for the modes the server does not enforce', () => {
    expect(formatInstructions('json_schema', schema)).toBe('');
    expect(formatInstructions('json_object', schema)).toContain('"required":["answer","domain"]');
    expect(formatInstructions('text', schema)).toContain('DOMAIN: <one of: Others | Politics and Law>');
  });
});

describe('offline provider', () => {
  const article = {
    title: 'Brightwater Logistics',
    url: 'https://x.invalid/wiki/Brightwater_Logistics',
    template: 'company',
    infobox: { num_employees: '12,350 (2024)', revenue: 'CRN 4.47 billion', caps3: '4' },
    firstParagraph: '',
  };

  it('asks template questions with readable key labels, answers them by lookup and classifies by template', async () => {
    const assistant = new OfflineWeeklyTasks();
    const question = await assistant.generateQuestion(article, { key: 'num_employees', value: '12,350 (2024)' });
    expect(question).toEqual({ ok: true, value: { question: 'What is the number of employees of Brightwater Logistics?' }, prompt: { name: 'offline-rules', version: '1' } });
    expect(await assistant.answerQuestion(article, 'What is the number of employees of Brightwater Logistics?')).toMatchObject({ ok: true, value: { answer: '12,350 (2024)' } });
    expect(await assistant.answerQuestion(article, templateQuestion(article.title, 'caps3'))).toMatchObject({ value: { answer: '4' } });
    expect(await assistant.answerQuestion(article, 'Who founded it?')).toMatchObject({ ok: false });
    expect(await assistant.classifyDomain(article)).toMatchObject({ value: { domain: 'Business and Economics' } });
    expect(assistant.provider).toBe('offline');
  });

  it('labels keys readably', () => {
    expect(keyLabel('population_total')).toBe('total population');
    expect(keyLabel('caps3')).toBe('caps 3');
    expect(keyLabel('leader_name2')).toBe('leader 2');
    expect(keyLabel('Opening-Date')).toBe('opening date');
  });

  it.each([
    ['football biography', 'Sports and Entertainment'],
    ['settlement', 'Geography and Environment'],
    ['company', 'Business and Economics'],
    ['officeholder', 'Politics and Law'],
    ['film', 'Culture and Arts'],
    ['film#2', 'Culture and Arts'],
    ['animanga/video#8', 'Culture and Arts'],
    ['software', 'Science and Technology'],
    ['football club season', 'Sports and Entertainment'],
    ['u.s. state', 'Geography and Environment'],
    ['some unknown box', 'Others'],
    // A district that elects someone is politics; one that is a place stays geography.
    ['electoral district', 'Politics and Law'],
    ['state electoral district', 'Politics and Law'],
    ['u.s. congressional district', 'Politics and Law'],
    ['australian electorate', 'Politics and Law'],
    ['uk constituency', 'Politics and Law'],
    ['district', 'Geography and Environment'],
    ['indian district', 'Geography and Environment'],
  ])('maps template %j to %s', (template, domain) => {
    expect(domainOfTemplate(template)).toBe(domain);
  });
});

describe('domain cap and ids', () => {
  const domains = Array.from({ length: 10 }, (_, i) => ({
    queryId: `q${i}`,
    domain: i < 7 ? 'Others' : 'Politics and Law',
    provider: 'offline',
    model: 'rules-v1',
    prompt: { name: 'offline-rules', version: '1' },
    reason: null,
  }));
  const passed = domains.map((d) => d.queryId).filter((id) => id !== 'q0');

  it('keeps at most the cap per domain among the questions that passed, the same ones for the same seed', () => {
    const capped = capPerDomain(passed, domains, 3, '1', '2025-02-03T00:00:00Z');
    expect(capped.size).toBe(3);
    expect([...capped.keys()].every((id) => ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].includes(id))).toBe(true);
    expect(capPerDomain([...passed].reverse(), domains, 3, '1', '2025-02-03T00:00:00Z')).toEqual(capped);
    const draws = new Set(['2', '3', '4', '5', '6'].map((seed) => [...capPerDomain(passed, domains, 3, seed, '2025-02-03T00:00:00Z').keys()].sort().join()));
    expect(draws.size).toBeGreaterThan(1);
  });

  it("makes DailyQA's ids from the window start and the page", () => {
    expect(queryIdFor({ start: '2025-02-03T00:00:00Z', end: '2025-02-10T00:00:00Z' }, 101)).toBe('25020300-101-0');
  });
});

describe('provider choice, settings and usage per run', () => {
  it('uses openai when an API key is set unless told otherwise', () => {
    expect(chosenProvider({}, { OPENAI_API_KEY: 'sk-test' })).toBe('openai');
    expect(chosenProvider({}, {})).toBe('offline');
    expect(chosenProvider({ llm: 'offline' }, { OPENAI_API_KEY: 'sk-test' })).toBe('offline');
    expect(chosenProvider({ llm: 'openai' }, {})).toBe('openai');
  });

  it("refuses openai with neither a key nor a server before any request, rather than retrying OpenAI's API without a key", () => {
    const store = Store.open(':memory:');
    const settings = loadSettings({ env: { WIKIDELTA_LLM: 'openai' }, cwd: '/nonexistent' });
    expect(() => new SessionTasks(store, settings, {}).weekly()).toThrow(withCode('E_FLAG_MISSING', /needs OPENAI_API_KEY .* or OPENAI_BASE_URL/));
    expect(new SessionTasks(store, settings, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).weekly().provider).toBe('openai');
    store.close();
  });

  it('reads the LLM settings from the environment and names a bad one', () => {
    const settings = loadSettings({ env: { WIKIDELTA_LLM: 'openai', WIKIDELTA_LLM_MODEL: 'qwen', WIKIDELTA_DOMAIN_CAP: '10' }, cwd: '/nonexistent' });
    expect(settings).toMatchObject({ llm: 'openai', llmModel: 'qwen', domainCap: 10, llmConcurrency: 4, search: 'auto' });
    expect(() => loadSettings({ env: { WIKIDELTA_LLM: 'gpt' }, cwd: '/nonexistent' })).toThrow(withCode('E_SETTING_INVALID', /invalid setting llm="gpt" \(from environment WIKIDELTA_LLM\)/));
  });

  it("adds up each stage's requests and tokens per run, with the cost where prices are set", () => {
    const store = Store.open(':memory:');
    store.db.prepare("INSERT INTO runs (id, pipeline, params_key, params, status, started_at) VALUES (1, 'weekly', 'k', '{}', 'done', 't')").run();
    const prices = { perThousandInput: 0.5, perThousandOutput: 2 };
    const base = { provider: 'openai', model: 'm', requests: 0, cacheHits: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
    recordUsage(store, 1, { ...base, requests: 3, cacheHits: 1, promptTokens: 1000, completionTokens: 500 }, prices);
    recordUsage(store, 1, { ...base, requests: 1, failures: 1, promptTokens: 1000 }, prices);
    recordUsage(store, 1, base, prices);
    const usage = runUsage(store, 1);
    expect(usage).toEqual([{ ...base, requests: 4, cacheHits: 1, failures: 1, promptTokens: 2000, completionTokens: 500, cost: 2 }]);
    expect(formatRunUsage(usage)).toMatch(/openai:m requests=4 cache_hits=1 failures=1 prompt_tokens=2000 completion_tokens=500 cost=2\.0000/);
    expect(costOf({ promptTokens: 10, completionTokens: 10 }, {})).toBeNull();
    store.close();
  });
});
