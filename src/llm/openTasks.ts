/**
 * The task providers the settings ask for. `llm` unset means openai when OPENAI_API_KEY is set,
 * else offline. The openai provider talks to OPENAI_BASE_URL (else OpenAI's API) with
 * OPENAI_API_KEY, as the SDK would on its own, and caches replies in the store.
 */
import { UserError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { Settings } from '../settings.js';
import type { BaselineTasks } from './baselineTasks.js';
import type { GrowoverTasks } from './growoverTasks.js';
import { OpenAiJudgeTasks, type JudgeTasks } from './judgeTasks.js';
import type { LabelTasks } from './labelTasks.js';
import { OfflineLabelTasks } from './offlineLabelTasks.js';
import { OpenAiLabelTasks } from './openaiLabelTasks.js';
import { OfflineBaselineTasks } from './offlineBaselineTasks.js';
import { OfflineGrowoverTasks } from './offlineGrowoverTasks.js';
import { OfflineWeeklyTasks } from './offlineWeeklyTasks.js';
import { OpenAiBaselineTasks } from './openaiBaselineTasks.js';
import { OpenAiClient } from './openaiClient.js';
import { OpenAiGrowoverTasks } from './openaiGrowoverTasks.js';
import { OpenAiWeeklyTasks } from './openaiWeeklyTasks.js';
import type { Prices } from './usage.js';
import type { WeeklyTasks } from './weeklyTasks.js';

/** The settings the LLM providers are made from. */
export type LlmSettings = Pick<
  Settings,
  'llm' | 'llmModel' | 'llmConcurrency' | 'llmPerMinute' | 'llmMaxRetries' | 'llmInvalidRetries' | 'llmTimeoutSeconds' | 'llmMaxReplyKb' | 'llmTemperature' | 'seed' | 'retryBaseMs'
>;

/**
 * The provider a session uses: `--llm` when given, else openai when OPENAI_API_KEY is set, else offline.
 *
 * @example chosenProvider({ llm: undefined }, { OPENAI_API_KEY: 'sk-…' }) === 'openai'
 */
export function chosenProvider(settings: Pick<Settings, 'llm'>, env: NodeJS.ProcessEnv = process.env): 'offline' | 'openai' {
  return settings.llm ?? (env.OPENAI_API_KEY ? 'openai' : 'offline');
}

/**
 * The task providers of one session. With openai every task set shares one client, so concurrency,
 * the per-minute cap and a server's Retry-After hold for the server, not for each task set (monthly
 * labels and generates against the same one); what they spend is taken stage by stage, and stages
 * run one after another. The client is made on first use: most commands need one task set, some none.
 *
 * @example
 * const tasks = new SessionTasks(db, settings);
 * const weekly = tasks.weekly(); // OfflineWeeklyTasks, or OpenAiWeeklyTasks sharing the session's one client
 */
export class SessionTasks {
  private client: OpenAiClient | undefined;

  constructor(
    private readonly store: Store,
    private readonly settings: LlmSettings,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  weekly(): WeeklyTasks {
    return this.offline() ? new OfflineWeeklyTasks() : new OpenAiWeeklyTasks(this.openAi());
  }

  growover(): GrowoverTasks {
    return this.offline() ? new OfflineGrowoverTasks() : new OpenAiGrowoverTasks(this.openAi());
  }

  baseline(): BaselineTasks {
    return this.offline() ? new OfflineBaselineTasks() : new OpenAiBaselineTasks(this.openAi());
  }

  /** The LLM judge of predictions (docs/ARCHITECTURE.md §15); null offline, where scoring's rule-based verdict judges. */
  judge(): JudgeTasks | null {
    return this.offline() ? null : new OpenAiJudgeTasks(this.openAi());
  }

  /** The LLM step of sentence labeling (docs/ARCHITECTURE.md §7.3). */
  label(): LabelTasks {
    return this.offline() ? new OfflineLabelTasks() : new OpenAiLabelTasks(this.openAi());
  }

  private offline(): boolean {
    return chosenProvider(this.settings, this.env) === 'offline';
  }

  private openAi(): OpenAiClient {
    this.client ??= openAiClient(this.store, this.settings, this.env);
    return this.client;
  }
}

/**
 * The LLM part of a run's identity: a run made offline is not continued by one made with a model, nor
 * one sampled at a temperature by one at another (a generation stage killed and resumed would hold
 * questions of both). The default temperature adds nothing, so the runs of a store made before it
 * counted are continued as they were.
 */
export function llmRunParam(settings: Pick<Settings, 'llm' | 'llmModel' | 'llmTemperature'>, env: NodeJS.ProcessEnv = process.env): string {
  if (chosenProvider(settings, env) === 'offline') return 'offline';
  return settings.llmTemperature === 0 ? `openai:${settings.llmModel}` : `openai:${settings.llmModel} temperature=${settings.llmTemperature}`;
}

/** The per-thousand-token prices the settings give, for the cost recorded with a run's usage; absent prices leave the cost unknown. */
export function pricesOf(settings: Pick<Settings, 'llmPricePer1kInput' | 'llmPricePer1kOutput'>): Prices {
  return {
    ...(settings.llmPricePer1kInput !== undefined ? { perThousandInput: settings.llmPricePer1kInput } : {}),
    ...(settings.llmPricePer1kOutput !== undefined ? { perThousandOutput: settings.llmPricePer1kOutput } : {}),
  };
}

function openAiClient(store: Store, settings: LlmSettings, env: NodeJS.ProcessEnv): OpenAiClient {
  // OpenAI's own API without a key refuses every request: said now, not after the retries of a run.
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
    throw new UserError('E_FLAG_MISSING', 'an OpenAI model (--llm openai or --judge openai) needs OPENAI_API_KEY for OpenAI\'s API, or OPENAI_BASE_URL for an OpenAI-compatible server');
  }
  return new OpenAiClient({
    model: settings.llmModel,
    concurrency: settings.llmConcurrency,
    perMinute: settings.llmPerMinute,
    maxRetries: settings.llmMaxRetries,
    invalidRetries: settings.llmInvalidRetries,
    timeoutMs: settings.llmTimeoutSeconds * 1000,
    maxReplyBytes: settings.llmMaxReplyKb * 1024,
    retryBaseMs: settings.retryBaseMs,
    temperature: settings.llmTemperature,
    seed: settings.seed,
    cache: store.llmCache,
    // The SDK's own variables, read from the environment given (so tests can pass theirs); a local
    // server needs no key, but the SDK refuses to start without one.
    ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    apiKey: env.OPENAI_API_KEY || 'none',
  });
}
