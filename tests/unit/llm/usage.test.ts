import { describe, expect, it } from 'vitest';
import { commandSpend, spendLine } from '../../../src/llm/usage.js';

describe("what a command that is no run spent", () => {
  const usage = { provider: 'openai', model: 'm', requests: 3, cacheHits: 5, failures: 0, promptTokens: 2000, completionTokens: 500 };

  it('is its usage at the prices given, in the summary names both predict and evaluate --judge report', () => {
    expect(commandSpend(usage, { perThousandInput: 0.01, perThousandOutput: 0.03 })).toEqual({ requests: 3, cache_hits: 5, prompt_tokens: 2000, completion_tokens: 500, cost: 0.035 });
    expect(commandSpend(usage, {}).cost).toBeNull();
  });

  it('reads as one phrase, the cost only when prices are known', () => {
    expect(spendLine(commandSpend(usage, {}))).toBe('3 requests, 5 from the cache, 2000 prompt and 500 completion tokens');
    expect(spendLine(commandSpend(usage, { perThousandInput: 0.01 }))).toBe('3 requests, 5 from the cache, 2000 prompt and 500 completion tokens, cost 0.0200');
  });
});
