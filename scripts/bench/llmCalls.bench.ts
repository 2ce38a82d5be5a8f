/**
 * LLM calls per second through the layer (p-queue, retries, validation, cache writes) against the
 * local OpenAI-compatible test server with 50 ms simulated latency, at concurrency 1, 4 and 8; then
 * the cache hit rate when the same calls are made again (target 100%: a rerun sends nothing).
 */
import { OpenAiClient } from '../../src/llm/openaiClient.js';
import { OpenAiWeeklyTasks } from '../../src/llm/openaiWeeklyTasks.js';
import { ResponseCache } from '../../src/store/llmCache.js';
import { openDatabase } from '../../src/store/database.js';
import { startOpenAiServer } from '../../testkit/openaiServer.js';
import { report } from './report.js';

const LATENCY_MS = 50;
const CALLS_PER_WORKER = 40;

const server = await startOpenAiServer({ latencyMs: LATENCY_MS });
const db = openDatabase(':memory:');
const article = (i: number) => ({
  title: `Benchmark town ${i}`,
  url: `https://bench.invalid/wiki/Benchmark_town_${i}`,
  template: 'settlement',
  infobox: { population_total: String(1000 + i), leader_name: `Mayor ${i}` },
  firstParagraph: `Benchmark town ${i} is a place that exists for measuring.`,
});

function tasksWith(concurrency: number): OpenAiWeeklyTasks {
  return new OpenAiWeeklyTasks(
    new OpenAiClient({
      baseURL: server.baseURL,
      apiKey: 'bench',
      model: 'bench-model',
      concurrency,
      perMinute: 100_000,
      maxRetries: 2,
      invalidRetries: 1,
      maxReplyBytes: 1 << 20,
    timeoutMs: 10_000,
      temperature: 0,
      seed: 1,
      cache: new ResponseCache(db),
    }),
  );
}

async function callsPerSecond(concurrency: number, offset: number): Promise<{ rate: number; calls: number }> {
  const tasks = tasksWith(concurrency);
  const calls = CALLS_PER_WORKER * concurrency;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: calls }, (_, i) => tasks.answerQuestion(article(offset + i), `What is the total population of Benchmark town ${offset + i}?`)),
  );
  const seconds = (performance.now() - started) / 1000;
  if (results.some((result) => !result.ok)) throw new Error('a benchmark call failed');
  return { rate: calls / seconds, calls };
}

try {
  let offset = 0;
  for (const concurrency of [1, 4, 8]) {
    const { rate, calls } = await callsPerSecond(concurrency, offset);
    report(`llm_calls_c${concurrency}`, rate, 'calls/s', { calls, latency_ms: LATENCY_MS });
    offset += calls;
  }
  // The same calls again: every one must come from the cache.
  const sentBefore = server.requests.length;
  const tasks = tasksWith(8);
  await Promise.all(Array.from({ length: offset }, (_, i) => tasks.answerQuestion(article(i), `What is the total population of Benchmark town ${i}?`)));
  const usage = tasks.takeUsage();
  report('llm_cache_hit_rate', (100 * usage.cacheHits) / offset, '%', { calls: offset, requests_sent: server.requests.length - sentBefore });
} finally {
  db.close();
  await server.stop();
}
