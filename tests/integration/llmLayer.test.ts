/**
 * The LLM layer through the real `openai` client against a local OpenAI-compatible server:
 * structured replies, reply-format fallback, invalid replies, 429 with Retry-After, 500s, timeouts,
 * a body that drips, an oversized reply, the reply budget, and the response cache. Failures of the
 * service are thrown (the stage fails and a later run asks again); verdicts on an item are returned.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/store/database.js';
import { loadPrompt } from '../../src/llm/prompts.js';
import { OpenAiClient, type OpenAiClientOptions } from '../../src/llm/openaiClient.js';
import { ResponseCache } from '../../src/store/llmCache.js';
import { OpenAiWeeklyTasks } from '../../src/llm/openaiWeeklyTasks.js';
import { SessionTasks } from '../../src/llm/openTasks.js';
import { loadSettings } from '../../src/settings.js';
import { questionProblem } from '../../pipelines/weekly/questionRules.js';
import { startOpenAiServer, type OpenAiServer, type OpenAiServerOptions } from '../../testkit/openaiServer.js';
import { Store } from '../../src/store/store.js';
import { withCode } from '../support/errorCodes.js';

const article = {
  title: 'Port Aldwin',
  url: 'https://sample.wikidelta.invalid/wiki/Port_Aldwin',
  template: 'settlement',
  infobox: { population_total: '418,950', leader_name: 'Edda Marrow' },
  firstParagraph: 'Port Aldwin is the largest port city of Caldrossa.',
};

let servers: OpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
});

async function setUp(serverOptions: OpenAiServerOptions = {}, clientOptions: Partial<OpenAiClientOptions> = {}) {
  const server = await startOpenAiServer(serverOptions);
  servers.push(server);
  const db = openDatabase(':memory:');
  const clientOn = (): OpenAiClient => new OpenAiClient({
    baseURL: server.baseURL,
    apiKey: 'test-key',
    model: 'test-model',
    concurrency: 4,
    perMinute: 10_000,
    maxRetries: 3,
    invalidRetries: 2,
    timeoutMs: 2000,
    maxReplyBytes: 1 << 20,
    temperature: 0,
    seed: 1,
    cache: new ResponseCache(db),
    retryBaseMs: 20,
    ...clientOptions,
  });
  const client = clientOn();
  // `rerun`: the tasks of the next run, on the same store (its reply cache): a new client, as a new process has.
  return { server, db, client, assistant: new OpenAiWeeklyTasks(client), rerun: () => new OpenAiWeeklyTasks(clientOn()) };
}

const question = 'What is the total population of Port Aldwin?';

describe('LLM layer against a local OpenAI-compatible server', () => {
  it('asks for structured output and validates the reply; tokens are counted', async () => {
    const { server, assistant } = await setUp();
    const result = await assistant.answerQuestion(article, question);
    expect(result).toMatchObject({ ok: true, value: { answer: '418,950' }, prompt: { name: 'correctness-answer', version: '2' } });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.mode).toBe('json_schema');
    expect(server.requests[0]?.body.response_format?.json_schema?.name).toBe('correctness-answer');
    const usage = assistant.takeUsage();
    expect(usage).toMatchObject({ provider: 'openai', model: 'test-model', requests: 1, cacheHits: 0, failures: 0 });
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeGreaterThan(0);
  });

  it('falls back to JSON mode with the schema in the prompt when structured output is refused, and remembers it', async () => {
    const { server, assistant } = await setUp({ jsonSchema: false });
    const first = await assistant.answerQuestion(article, question);
    const second = await assistant.generateQuestion(article, { key: 'leader_name', value: 'Edda Marrow' });
    expect(first).toMatchObject({ ok: true, value: { answer: '418,950' } });
    expect(second.ok).toBe(true);
    expect(server.requests.map((r) => r.mode)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(server.requests[1]?.body.messages[0]?.content).toContain('JSON Schema');
  });

  it('falls back to FIELD: value lines when the server has neither structured output nor JSON mode', async () => {
    const { server, assistant } = await setUp({ jsonSchema: false, jsonObject: false });
    const result = await assistant.classifyDomain(article, question);
    expect(result).toMatchObject({ ok: true, value: { domain: 'Others' } });
    expect(server.requests.map((r) => r.mode)).toEqual(['json_schema', 'json_object', 'text']);
    expect(server.requests[2]?.body.messages[0]?.content).toMatch(/DOMAIN: <one of: Science and Technology \|/);
  });

  it('asks the requests of a batch waiting in the queue in the format found to work, not in the one refused meanwhile', async () => {
    const { server, assistant } = await setUp({ jsonSchema: false, jsonObject: false, maxTokens: false, latencyMs: 20 }, { concurrency: 2 });
    const keys = ['population total', 'leader name', 'area', 'elevation', 'founded', 'mayor', 'timezone', 'postal code'];
    const results = await Promise.all(keys.map((key) => assistant.answerQuestion(article, `What is the ${key} of Port Aldwin?`)));
    expect(results.every((result) => result.ok)).toBe(true);
    // Each of the three refusals (structured output, JSON mode, max_tokens) is met by the two requests
    // in flight at most, not by the eight of the batch; then each question is asked once.
    const refused = server.requests.filter((request) => request.mode !== 'text' || request.body.max_tokens !== undefined);
    expect(refused.length).toBeLessThanOrEqual(6);
    expect(server.requests).toHaveLength(refused.length + keys.length);
  });

  it('reads the Markdown models write around a reply: a JSON fence in capitals, a label in bold with its colon inside', async () => {
    const fenced = await setUp({ script: () => '```JSON\n{"answer": "418,950"}\n```' });
    expect(await fenced.assistant.answerQuestion(article, question)).toMatchObject({ ok: true, value: { answer: '418,950' } });
    expect(fenced.server.requests).toHaveLength(1);
    const bold = await setUp({ jsonSchema: false, jsonObject: false, script: () => 'Here you go:\n**ANSWER:** 418,950' });
    expect(await bold.assistant.answerQuestion(article, question)).toMatchObject({ ok: true, value: { answer: '418,950' } });
  });

  it('retries a reply that is not JSON, telling the model what was wrong', async () => {
    const { server, assistant } = await setUp({ faults: ['invalid-json'] });
    const result = await assistant.answerQuestion(article, question);
    expect(result).toMatchObject({ ok: true, value: { answer: '418,950' } });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body.messages.at(-1)?.content).toMatch(/cannot be used: reply is not JSON/);
  });

  it('marks the item with the reason after the bounded retries of schema violations, and the other items go on', async () => {
    const { server, assistant } = await setUp({ alwaysFault: 'schema-violation', alwaysFaultWhen: 'total population' });
    const [bad, good] = await Promise.all([
      assistant.answerQuestion(article, question),
      assistant.answerQuestion(article, 'What is the leader of Port Aldwin?'),
    ]);
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.reason).toMatch(/^invalid reply after 3 attempts: reply does not match the schema \(answer: /);
    expect(good).toMatchObject({ ok: true, value: { answer: 'Edda Marrow' } });
    expect(server.requests).toHaveLength(4);
    expect(assistant.takeUsage().failures).toBe(1);
  });

  it('marks an item whose replies are never valid JSON, without throwing', async () => {
    const { server, assistant } = await setUp({ alwaysFault: 'invalid-json' }, { invalidRetries: 1 });
    const result = await assistant.generateQuestion(article, { key: 'population_total', value: '418,950' });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(/^invalid reply after 2 attempts: reply is not JSON/);
    expect(server.requests).toHaveLength(2);
    // The verdict is cached: asking again sends nothing and gives the same reason.
    const again = await assistant.generateQuestion(article, { key: 'population_total', value: '418,950' });
    expect(again).toEqual(result);
    expect(server.requests).toHaveLength(2);
  });

  it('fails an item on a 400 that is not about the reply format, without changing the format', async () => {
    const { server, assistant } = await setUp({ faults: ['bad-request'] });
    const result = await assistant.answerQuestion(article, question);
    expect(result.ok ? '' : result.reason).toMatch(/HTTP 400: .*context window/);
    expect((await assistant.answerQuestion(article, 'What is the leader of Port Aldwin?')).ok).toBe(true);
    expect(server.requests.map((r) => r.mode)).toEqual(['json_schema', 'json_schema']);
  });

  it('throws a 400 refusing a setting every request sends (a sampling parameter), caching no verdict on the item', async () => {
    const { server, assistant } = await setUp({ faults: ['unsupported-parameter'] });
    await expect(assistant.answerQuestion(article, question)).rejects.toThrow(/HTTP 400: .*temperature/);
    // Nothing was stored as the item's failure: asked again, it is asked again and answered.
    expect((await assistant.answerQuestion(article, question)).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('asks again when a generated question breaks the rule the stage gives', async () => {
    const { server, assistant } = await setUp({ faults: ['dated-question'] });
    const result = await assistant.generateQuestion(article, { key: 'population_total', value: '418,950' }, questionProblem);
    expect(result).toMatchObject({ ok: true, value: { question: 'According to its article, what is the population total of Port Aldwin?' } });
    expect(server.requests[1]?.body.messages.at(-1)?.content).toMatch(/must not contain a date restriction/);
  });

  it('checks only the shape of a question reply when no rule is given', async () => {
    const { server, assistant } = await setUp({ faults: ['dated-question'] });
    const result = await assistant.generateQuestion(article, { key: 'population_total', value: '418,950' });
    expect(result).toMatchObject({ ok: true, value: { question: 'What was the population of Port Aldwin as of 2024?' } });
    expect(server.requests).toHaveLength(1);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    const { server, assistant } = await setUp({ faults: ['rate-limit'], retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await assistant.answerQuestion(article, question);
    expect(result.ok).toBe(true);
    // The wait the server asked for is a floor, which a slow machine cannot break; nothing here bounds how fast the call is.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 with backoff, and throws the failure of the service once the retries are spent, caching nothing', async () => {
    const { server, assistant } = await setUp({ faults: ['server-error', 'server-error'] });
    expect((await assistant.answerQuestion(article, question)).ok).toBe(true);
    expect(server.requests).toHaveLength(3);

    const failing = await setUp({ alwaysFault: 'server-error' }, { maxRetries: 2 });
    await expect(failing.assistant.answerQuestion(article, question)).rejects.toThrow(withCode('E_LLM_UNREACHABLE', /^LLM server http:\/\/127\.0\.0\.1:\d+\/v1 failed after 2 retries: HTTP 500/));
    expect(failing.server.requests).toHaveLength(3);
    expect(failing.assistant.takeUsage()).toMatchObject({ requests: 3, failures: 1 });
    // The service is down: the process's next call is not sent for a while (a batch's other items fail at once)…
    await expect(failing.assistant.answerQuestion(article, question)).rejects.toThrow(withCode('E_LLM_UNREACHABLE', /HTTP 500: .*\(this request not tried: the service failed so less than 60 s ago\)$/));
    expect(failing.server.requests).toHaveLength(3);
    // …and nothing of the outage was kept: the next run asks the server again.
    await expect(failing.rerun().answerQuestion(article, question)).rejects.toThrow(withCode('E_LLM_UNREACHABLE'));
    expect(failing.server.requests).toHaveLength(6);
  });

  it('throws at once for a Retry-After beyond what a client waits, and for a server that refuses connections', async () => {
    const refusing = await setUp({ alwaysFault: 'rate-limit', retryAfterSeconds: 3600 });
    await expect(refusing.assistant.answerQuestion(article, question)).rejects.toThrow(/HTTP 429: .*\(asked to wait 3600 s, more than the 300 s a client waits\)/);
    expect(refusing.server.requests).toHaveLength(1);

    const gone = await setUp({}, { maxRetries: 1 });
    await gone.server.stop();
    await expect(gone.assistant.generateQuestion(article, { key: 'population_total', value: '418,950' })).rejects.toThrow(/failed after 1 retry: connection failed/);
  });

  it('gives up on a request after its timeout and retries it; past the retries the failure is thrown', async () => {
    const { server, assistant } = await setUp({ faults: ['hang'], hangMs: 5000 }, { timeoutMs: 300 });
    expect((await assistant.answerQuestion(article, question)).ok).toBe(true);
    // Waited out, the hung request would have been answered: a second request means it was cut.
    expect(server.requests).toHaveLength(2);

    const stuck = await setUp({ alwaysFault: 'hang', hangMs: 5000 }, { timeoutMs: 300, maxRetries: 0 });
    await expect(stuck.assistant.answerQuestion(article, question)).rejects.toThrow(/no complete reply within 0.3 s/);
  });

  it('counts the timeout to the last byte: a reply whose body drips after its headers is cut there', async () => {
    const { server, assistant } = await setUp({ faults: ['drip'], dripMs: 100 }, { timeoutMs: 1000 });
    expect((await assistant.answerQuestion(article, question)).ok).toBe(true);
    // Read to its end, the dripping reply would have been the answer: a second request means it was cut.
    expect(server.requests).toHaveLength(2);

    const dripping = await setUp({ alwaysFault: 'drip', dripMs: 100 }, { timeoutMs: 1000, maxRetries: 1 });
    await expect(dripping.assistant.answerQuestion(article, question)).rejects.toThrow(/failed after 1 retry: no complete reply within 1 s/);
    expect(dripping.server.requests).toHaveLength(2);
  });

  it.each([
    ['null', { body: 'null' }, /the reply is not a chat completion but null/],
    ['{}', { body: '{}' }, /its choices are undefined/],
    ['an array', { body: '[]' }, /not a chat completion but an array/],
    ['an HTML page', { body: '<html>captive portal</html>', contentType: 'text/html' }, /not a chat completion but the text "<html>captive portal<\/html>"/],
    ['no choice', { body: '{"choices":[]}' }, /it has no choice/],
    ['a choice without a message', { body: '{"choices":[{"message":null}]}' }, /first choice's message is null/],
    ['a content that is not text', { body: '{"choices":[{"message":{"content":{"question":"What?"}}}]}' }, /message's content is an object/],
  ])('takes a 200 reply that is not a chat completion (%s) for a failure of the server: retried, then thrown, no verdict cached', async (_name, notACompletion, line) => {
    const { server, assistant } = await setUp({ faults: ['not-a-completion'], notACompletion });
    expect((await assistant.generateQuestion(article, { key: 'population_total', value: '418,950' })).ok).toBe(true);
    expect(server.requests).toHaveLength(2);

    const broken = await setUp({ alwaysFault: 'not-a-completion', notACompletion }, { maxRetries: 1 });
    const unit = { key: 'population_total', value: '418,950' };
    await expect(broken.assistant.generateQuestion(article, unit)).rejects.toThrow(withCode('E_LLM_UNREACHABLE', line));
    expect(broken.server.requests).toHaveLength(2);
    // Nothing was kept as the item's verdict: the next run asks again.
    await expect(broken.rerun().generateQuestion(article, unit)).rejects.toThrow(withCode('E_LLM_UNREACHABLE'));
    expect(broken.server.requests).toHaveLength(4);
  });

  it('refuses a reply over the size cap without retrying it, as a failure of the server', async () => {
    const { server, assistant } = await setUp({ alwaysFault: 'huge-reply', hugeReplyBytes: 4 << 20 }, { maxReplyBytes: 64 << 10 });
    await expect(assistant.generateQuestion(article, { key: 'population_total', value: '418,950' })).rejects.toThrow(
      /LLM server .* failed: a reply larger than 64 KB, the most a reply may hold, refused/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("asks for at most the prompt's max_tokens, and for max_completion_tokens from a server that refuses max_tokens", async () => {
    const { server, assistant } = await setUp();
    await assistant.answerQuestion(article, question);
    await assistant.classifyDomain(article, question);
    expect(server.requests.map((r) => r.body.max_tokens)).toEqual([loadPrompt('correctness-answer').maxTokens, loadPrompt('domain-classification').maxTokens]);

    const reasoning = await setUp({ maxTokens: false }, { model: 'reasoning-model' });
    expect((await reasoning.assistant.answerQuestion(article, question)).ok).toBe(true);
    expect((await reasoning.assistant.answerQuestion(article, 'What is the leader of Port Aldwin?')).ok).toBe(true);
    expect(reasoning.server.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([
      [300, undefined],
      [undefined, 300],
      [undefined, 300],
    ]);
  });

  it('answers a repeated call from the cache, valid replies and invalid-reply verdicts alike', async () => {
    const { server, db, assistant } = await setUp();
    await assistant.answerQuestion(article, question);
    const again = await assistant.answerQuestion(article, question);
    expect(again).toMatchObject({ ok: true, value: { answer: '418,950' } });
    expect(server.requests).toHaveLength(1);
    expect(assistant.takeUsage()).toMatchObject({ requests: 1, cacheHits: 1 });
    // A different prompt version is a different call.
    const prompt = { ...loadPrompt('correctness-answer'), version: '999' };
    const client = new OpenAiClient({
      baseURL: server.baseURL, apiKey: 'k', model: 'test-model', concurrency: 1, perMinute: 100, maxRetries: 0,
      invalidRetries: 0, timeoutMs: 2000, maxReplyBytes: 1 << 20, temperature: 0, seed: 1, cache: new ResponseCache(db),
    });
    await client.call({
      prompt,
      variables: { title: 'Port Aldwin', first_paragraph: '', infobox: 'population_total: 418,950', question },
      schema: z.object({ answer: z.string() }),
    });
    expect(server.requests).toHaveLength(2);
    db.close();
  });

  it('asks identical calls made at once a single time, with or without the store cache (the same question of two queries in one batch)', async () => {
    for (const cache of ['store', 'none'] as const) {
      const { server, assistant } = await setUp({ latencyMs: 50 }, cache === 'none' ? { cache: null } : {});
      const results = await Promise.all([assistant.answerQuestion(article, question), assistant.answerQuestion(article, question), assistant.answerQuestion(article, 'What is the leader name of Port Aldwin?')]);
      expect(results.map((result) => result.ok && result.value.answer)).toEqual(['418,950', '418,950', 'Edda Marrow']);
      expect(server.requests).toHaveLength(2);
      expect(assistant.takeUsage()).toMatchObject({ requests: 2, cacheHits: 1, failures: 0 });
    }
  });

  it('holds one concurrency limit for the server across the task sets of a session (monthly labels and generates)', async () => {
    const server = await startOpenAiServer({ latencyMs: 50 });
    servers.push(server);
    const store = Store.open(':memory:');
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const tasks = new SessionTasks(store, loadSettings({ flags: { llm: 'openai', llmModel: 'local-test', llmConcurrency: 1 }, env }), env);
    const sentences = [{ index: 0, text: 'The observatory operates four optical telescopes.' }];
    await Promise.all([
      tasks.growover().generateGroundedQa({ title: 'Observatory', sentences, source: 'initial', context: '' }),
      tasks.label().judgeSentenceChange({ oldSentence: 'It operates three telescopes.', newSentence: 'It operates four telescopes.', facts: 'facts differ: number:3 → number:4' }),
    ]);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.mostInFlight).toBe(1);
    store.close();
  });
});
