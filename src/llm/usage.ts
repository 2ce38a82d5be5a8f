/** Calls and tokens spent through one LLM provider, and their record per run (what `status` shows). */
import type { Store } from '../store/store.js';
import type { RunUsage, Usage } from '../model/llmUsage.js';

/** Prices per thousand tokens; an absent one leaves the cost unknown. */
export interface Prices {
  perThousandInput?: number;
  perThousandOutput?: number;
}

/** Counts as they happen; `take` hands over what accumulated since the last take. */
export class UsageMeter {
  private current: Usage;

  constructor(readonly provider: string, readonly model: string) {
    this.current = emptyUsage(provider, model);
  }

  add(delta: Partial<Omit<Usage, 'provider' | 'model'>>): void {
    for (const [field, value] of Object.entries(delta) as Array<[keyof typeof delta, number]>) this.current[field] += value;
  }

  take(): Usage {
    const taken = this.current;
    this.current = emptyUsage(this.provider, this.model);
    return taken;
  }
}

/**
 * What a stage whose batches run as jobs spent: each job returns what its calls spent with its
 * result (on a worker, through the worker's own client), and what jobs in this process spent
 * without returning it (a failed one) is still with the stage's own provider.
 */
export class StageUsage {
  private readonly spent: UsageMeter;

  constructor(private readonly local: { provider: string; model: string; takeUsage(): Usage }) {
    this.spent = new UsageMeter(local.provider, local.model);
  }

  add({ requests, cacheHits, failures, promptTokens, completionTokens }: Usage): void {
    this.spent.add({ requests, cacheHits, failures, promptTokens, completionTokens });
  }

  takeUsage(): Usage {
    this.add(this.local.takeUsage());
    return this.spent.take();
  }
}

function emptyUsage(provider: string, model: string): Usage {
  return { provider, model, requests: 0, cacheHits: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
}

/**
 * What tokens cost at the prices given; null when no price is known (a local server).
 *
 * @example costOf({ promptTokens: 2000, completionTokens: 500 }, { perThousandInput: 0.01, perThousandOutput: 0.03 }) // 0.035
 */
export function costOf(usage: Pick<Usage, 'promptTokens' | 'completionTokens'>, prices: Prices): number | null {
  if (prices.perThousandInput === undefined && prices.perThousandOutput === undefined) return null;
  return (usage.promptTokens / 1000) * (prices.perThousandInput ?? 0) + (usage.completionTokens / 1000) * (prices.perThousandOutput ?? 0);
}

/** What a command that is no run spent (`predict`, `evaluate --judge`): nothing else records it, so its summary says it. */
export interface CommandSpend {
  requests: number;
  cache_hits: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Null without prices. */
  cost: number | null;
}

/** The usage a command took from its tasks, at the prices given, as its summary reports it. */
export function commandSpend(usage: Usage, prices: Prices): CommandSpend {
  return { requests: usage.requests, cache_hits: usage.cacheHits, prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, cost: costOf(usage, prices) };
}

/**
 * The spend in words, for a command's last line.
 *
 * @example spendLine({ requests: 2, cache_hits: 5, prompt_tokens: 900, completion_tokens: 40, cost: null }) // '2 requests, 5 from the cache, 900 prompt and 40 completion tokens'
 */
export function spendLine(spend: CommandSpend): string {
  return `${spend.requests} requests, ${spend.cache_hits} from the cache, ${spend.prompt_tokens} prompt and ${spend.completion_tokens} completion tokens${spend.cost === null ? '' : `, cost ${spend.cost.toFixed(4)}`}`;
}

/**
 * Runs a stage body and adds whatever the task provider spent to the run's usage, also when the
 * body fails: tokens paid for are counted whether or not the stage finished.
 */
export async function withUsage<T>(
  run: { store: Store; runId: number },
  provider: { takeUsage(): Usage },
  prices: Prices,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } finally {
    recordUsage(run.store, run.runId, provider.takeUsage(), prices);
  }
}

/** Adds a stage's usage to its run's totals. */
export function recordUsage(store: Store, runId: number, usage: Usage, prices: Prices): void {
  if (usage.requests + usage.cacheHits + usage.failures === 0) return;
  store.llmUsage.add(runId, usage, costOf(usage, prices));
}

/** A run's LLM usage, one entry per provider and model, as `status` prints it through `formatRunUsage`. */
export function runUsage(store: Store, runId: number): RunUsage[] {
  return store.llmUsage.ofRun(runId);
}

/** One line per provider and model, for `status`. */
export function formatRunUsage(usages: RunUsage[]): string {
  return usages
    .map(
      (u) =>
        `  llm      ${u.provider}:${u.model} requests=${u.requests} cache_hits=${u.cacheHits} failures=${u.failures} ` +
        `prompt_tokens=${u.promptTokens} completion_tokens=${u.completionTokens}${u.cost === null ? '' : ` cost=${u.cost.toFixed(4)}`}\n`,
    )
    .join('');
}
