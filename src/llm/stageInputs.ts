/**
 * What the generate, check, classify and export stages need from the settings: the assistant of
 * the chosen provider, prices, the descriptiveness search backend (the wiki's own search when the
 * run reads an API, unless told otherwise), the domain cap and the release directory.
 */
import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';
import type { SearchBackend } from '../search/searchBackend.js';
import { WikiSearch } from '../search/wikiSearch.js';
import type { Settings } from '../settings.js';
import type { Assistant } from './assistant.js';
import { chosenProvider, openAssistant, pricesOf } from './openAssistant.js';
import type { Prices } from './usage.js';

export interface LlmStageInputs {
  assistant: Assistant;
  prices: Prices;
  /** Absent: the check stage builds the local BM25 index over the pages stored by then. */
  search?: SearchBackend;
  domainCap: number;
  releaseDir?: string;
}

export function llmStageInputs(db: Database, settings: Settings, flags: { api?: string; out?: string }, env = process.env): LlmStageInputs {
  const inputs: LlmStageInputs = { assistant: openAssistant(db, settings, env), prices: pricesOf(settings), domainCap: settings.domainCap };
  const search = settings.search === 'auto' ? (flags.api ? 'wiki' : 'local') : settings.search;
  if (search === 'wiki') {
    if (!flags.api) throw new UserError('search "wiki" needs the wiki: give --api URL (or use search "local")');
    inputs.search = new WikiSearch({
      apiUrl: flags.api,
      userAgent: settings.userAgent,
      maxInFlight: settings.maxInFlight,
      perMinute: settings.perMinute,
      maxRetries: settings.maxRetries,
    });
  }
  if (flags.out) inputs.releaseDir = flags.out;
  return inputs;
}

/** The LLM part of a weekly run's identity: a run made offline is not continued by one made with a model. */
export function llmRunParams(settings: Settings, env = process.env): { llm: string } {
  return { llm: chosenProvider(settings, env) === 'offline' ? 'offline' : `openai:${settings.llmModel}` };
}
