/**
 * Questions of the weekly pipeline and what happened to them (docs/ARCHITECTURE.md §4): their
 * generation with provenance, the two checks, the domain and the update-frequency class.
 */
import type { Provenance } from '../model.js';
import type { Result } from '../result.js';
import type { DataUnit } from './weekly.js';

/** A data unit's generated question (or why there is none), with where it came from. */
export interface Generation {
  unit: DataUnit;
  queryId: string;
  provenance: Provenance;
  question: Result<string>;
}

export interface Question {
  id: string;
  text: string;
  unit: DataUnit;
}

export type CheckName = 'correctness' | 'descriptiveness';

export interface CheckResult {
  queryId: string;
  check: CheckName;
  passed: boolean;
  reason: string;
  detail: string | null;
  backend: string;
  prompt: { name: string; version: string } | null;
}

export interface DomainResult {
  queryId: string;
  domain: string;
  provider: string;
  model: string;
  prompt: { name: string; version: string };
  reason: string | null;
}

export type UpdateFrequency = 'pending' | 'frequent_update' | 'infrequent_update';

/** A generated item of a week as its release shows it: generation, source data unit, query state and domain. */
export interface GeneratedItem {
  id: string;
  status: 'ok' | 'failed';
  reason: string | null;
  text: string | null;
  kept: boolean;
  updateFrequency: string | null;
  wiki: string;
  windowStart: string;
  windowEnd: string;
  pageId: number;
  revId: number;
  prevRevId: number;
  gold: string;
  prompt: string;
  promptVersion: string;
  provider: string;
  model: string;
  seed: string;
  title: string;
  url: string;
  timestamp: string;
  template: string;
  key: string;
  old: string;
  infobox: Record<string, string>;
  keyLabels: Record<string, string>;
  firstParagraph: string;
  domain: string | null;
  domainProvider: string | null;
  domainModel: string | null;
  domainPrompt: string | null;
  domainPromptVersion: string | null;
  domainReason: string | null;
  capped: boolean;
}

/** A stored check result as a release shows it; detail is the raw stored text. */
export interface StoredCheck {
  queryId: string;
  check: string;
  passed: boolean;
  reason: string;
  detail: string | null;
  backend: string;
  prompt: string | null;
  promptVersion: string | null;
}

/** A generated query of a wiki with what the demo prints about it. */
/** A kept query as a DailyQA release lists it: generated ones with their page and change, imported ones with their week. */
export interface KeptQuery {
  id: string;
  query: string;
  origin: 'generated' | 'imported';
  week: string | null;
  wiki: string | null;
  pageId: number | null;
  title: string | null;
  url: string | null;
  key: string | null;
  domain: string | null;
  updateFrequency: string;
  changedAt: string | null;
  /** The infobox template of the change it was made from (`wikibase-item` for a Wikidata entity); null when imported. */
  template: string | null;
}

export interface QuerySummary {
  id: string;
  text: string;
  kept: boolean;
  provider: string;
  domain: string | null;
  changedAt: string;
}
