/**
 * The assistant the settings ask for. `llm` unset means openai when OPENAI_API_KEY is set, else
 * offline. The openai provider talks to OPENAI_BASE_URL (else OpenAI's API) with OPENAI_API_KEY, as
 * the SDK would on its own, and caches replies in the store.
 */
import type { Database } from 'better-sqlite3';
import type { Settings } from '../settings.js';
import type { Assistant } from './assistant.js';
import { ModelAssistant } from './modelAssistant.js';
import { OfflineAssistant } from './offlineAssistant.js';
import { OpenAiClient } from './openaiClient.js';
import { ResponseCache } from '../store/llmCache.js';
import type { Prices } from './usage.js';

export type LlmSettings = Pick<
  Settings,
  'llm' | 'llmModel' | 'llmConcurrency' | 'llmPerMinute' | 'llmMaxRetries' | 'llmInvalidRetries' | 'llmTimeoutSeconds' | 'llmTemperature' | 'seed'
>;

export function chosenProvider(settings: Pick<Settings, 'llm'>, env: NodeJS.ProcessEnv = process.env): 'offline' | 'openai' {
  return settings.llm ?? (env.OPENAI_API_KEY ? 'openai' : 'offline');
}

export function openAssistant(db: Database, settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): Assistant {
  if (chosenProvider(settings, env) === 'offline') return new OfflineAssistant();
  return new ModelAssistant(
    new OpenAiClient({
      model: settings.llmModel,
      concurrency: settings.llmConcurrency,
      perMinute: settings.llmPerMinute,
      maxRetries: settings.llmMaxRetries,
      invalidRetries: settings.llmInvalidRetries,
      timeoutMs: settings.llmTimeoutSeconds * 1000,
      temperature: settings.llmTemperature,
      seed: settings.seed,
      cache: new ResponseCache(db),
      // The SDK's own variables, read from the environment given (so tests can pass theirs); a local
      // server needs no key, but the SDK refuses to start without one.
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      apiKey: env.OPENAI_API_KEY || 'none',
    }),
  );
}

export function pricesOf(settings: Pick<Settings, 'llmPricePer1kInput' | 'llmPricePer1kOutput'>): Prices {
  return {
    ...(settings.llmPricePer1kInput !== undefined ? { perThousandInput: settings.llmPricePer1kInput } : {}),
    ...(settings.llmPricePer1kOutput !== undefined ? { perThousandOutput: settings.llmPricePer1kOutput } : {}),
  };
}
